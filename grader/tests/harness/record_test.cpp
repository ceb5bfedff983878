// The hidden tests' modes: --skip-large (the grader's --quick) skips the cases of several GiB and
// the correctness cases past kLargestQuickCase elements, and --quick (compute-sanitizer's small
// shapes) implies it.
#include <gtest/gtest.h>

#include "harness/lesson.hpp"
#include "harness/record.hpp"
#include "harness/resources.hpp"

namespace {

struct Modes {
  bool quick, skip_large, expect_skip;
};

TEST(Record, SkipLargeUnderEitherFlag) {
  for (const Modes m : {Modes{false, false, false}, Modes{false, true, true},
                        Modes{true, false, true}, Modes{true, true, true}}) {
    harness::set_quick(m.quick);
    harness::set_skip_large(m.skip_large);
    EXPECT_EQ(harness::skip_large(), m.expect_skip) << m.quick << " " << m.skip_large;
    EXPECT_EQ(harness::quick(), m.quick);  // --skip-large alone keeps shapes and timing
  }
  harness::set_quick(false);
  harness::set_skip_large(false);
}

// A case that asks for its memory is a large case: under --skip-large it is skipped there, before
// any device query or allocation (this machine may have no GPU), in quick mode's words.
TEST(Record, RequireMemorySkipsLargeCasesUnderSkipLarge) {
  harness::set_skip_large(true);
  try {
    harness::require_memory(1, 1, "a test case");
    ADD_FAILURE() << "no SkipCase";
  } catch (const harness::SkipCase& e) {
    EXPECT_NE(std::string(e.what()).find("large shape skipped"), std::string::npos) << e.what();
  }
  harness::set_skip_large(false);
}

// A correctness case with a buffer of more than kLargestQuickCase elements skips under
// --skip-large, before it allocates; a buffer at the limit, and the timed case's of any size, do
// not skip (they then allocate, or fail to with a CudaError where this machine has no GPU).
bool skips(harness::Case::Mode mode, std::size_t n) {
  harness::Case c("00_lesson", "step", "case", mode, 1);
  try {
    c.output<float>("out", n);
  } catch (const harness::SkipCase& e) {
    EXPECT_NE(std::string(e.what()).find("large shape skipped"), std::string::npos) << e.what();
    return true;
  } catch (const harness::CudaError&) {  // no GPU here: the case got as far as allocating
  }
  return false;
}

TEST(Record, SkipLargeSkipsCorrectnessCasesPastTheQuickLimit) {
  using Mode = harness::Case::Mode;
  const std::size_t limit = harness::kLargestQuickCase;
  harness::set_skip_large(true);
  EXPECT_TRUE(skips(Mode::correctness, limit + 1));
  EXPECT_FALSE(skips(Mode::correctness, limit));
  EXPECT_FALSE(skips(Mode::timing, limit + 1));  // the speed test always runs
  harness::set_skip_large(false);
  EXPECT_FALSE(skips(Mode::correctness, limit + 1));  // the full grade runs every case
}

}  // namespace
