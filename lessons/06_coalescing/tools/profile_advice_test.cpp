// This lesson's profile advice: an array of structures (loads and stores both strided) is told
// to become a structure of arrays; anything else gets the generic advice.
#include <gtest/gtest.h>

#include "course/profile.hpp"
#include "kernel_metrics_fixture.hpp"

namespace {

using course::profile::verdict_line;
using test_fixture::metrics;

TEST(CoalescingAdvice, BothSidesStridedIsAStructureOfArrays) {
  const std::string aos = verdict_line(metrics(78, 10, 24, 24, 0, 0), "06_coalescing");
  EXPECT_NE(aos.find("loads take 24.0 and its stores 24.0 sectors per request"), std::string::npos)
      << aos;
  EXPECT_NE(aos.find("the next experiment would be to change the data layout so that neighbouring "
                     "lanes touch neighbouring addresses (a structure of arrays)."),
            std::string::npos)
      << aos;
}

TEST(CoalescingAdvice, OtherwiseTheGenericAdvice) {
  for (const auto& m : {metrics(92, 20, 4, 32, 0, 0), metrics(90, 30, 4, 4, 10, 1000)})
    EXPECT_EQ(verdict_line(m, "06_coalescing"), verdict_line(m, "99_no_such_lesson"));
}

}  // namespace
