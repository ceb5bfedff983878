// What the reporter keeps of the tests that failed in the process: a step whose correctness
// cases failed is not timed (not_timed_after_failed_cases()), and lesson 15 does not profile a
// case that failed (failed_in_this_process()). Made-up test names: the sets live as long as the
// process.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "harness/reporter.hpp"

namespace {

TEST(FailedTests, AFailedCorrectnessCaseStopsItsStepsTiming) {
  harness::detail::note_test_end("rt_wrong/Correct", "n_1", true);
  harness::detail::note_test_end("rt_right/Correct", "n_1", false);
  EXPECT_TRUE(harness::failed_in_this_process("rt_wrong/Correct.n_1"));
  EXPECT_FALSE(harness::failed_in_this_process("rt_right/Correct.n_1"));
  EXPECT_TRUE(harness::step_failed_correctness("rt_wrong"));
  EXPECT_FALSE(harness::step_failed_correctness("rt_right"));
  EXPECT_NONFATAL_FAILURE(EXPECT_TRUE(harness::not_timed_after_failed_cases("rt_wrong")),
                          "not timed: correctness cases of rt_wrong failed");
  EXPECT_FALSE(harness::not_timed_after_failed_cases("rt_right"));
}

TEST(FailedTests, CasesThatEndTheProcessCountAsCorrectnessCases) {
  harness::detail::note_test_end("rt_last/CorrectLast", "kernel_fault", true);
  EXPECT_TRUE(harness::step_failed_correctness("rt_last"));
}

// A failed timed or profiled test is kept by name but is no correctness case of its step.
TEST(FailedTests, AFailedTimedTestIsNoCorrectnessCase) {
  harness::detail::note_test_end("rt_slow/Speed", "timed", true);
  EXPECT_TRUE(harness::failed_in_this_process("rt_slow/Speed.timed"));
  EXPECT_FALSE(harness::step_failed_correctness("rt_slow"));
  EXPECT_FALSE(harness::not_timed_after_failed_cases("rt_slow"));
}

}  // namespace
