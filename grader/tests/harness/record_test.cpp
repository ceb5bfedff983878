// The hidden tests' modes: --skip-large (the grader's --quick) skips the cases of several GiB, and
// --quick (compute-sanitizer's small shapes) implies it.
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

}  // namespace
