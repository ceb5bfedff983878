// The reading of the bank-conflict counters behind `grader profile 08_bank_conflicts`.
#include "advice.hpp"

#include <gtest/gtest.h>

namespace {

using bank_conflicts::advice::judge;

// The unpadded float tile product: per warp, 32 A loads (broadcast, 0 extra) and 32 B loads
// (32-way: 31 extra each): 992 conflicts over 64 loads = 15.5 extra per load.
TEST(BankAdvice, UnpaddedTileIsConflicted) {
  const auto v = judge(992.0 * 1000, 64.0 * 1000);
  EXPECT_DOUBLE_EQ(v.extra_per_load, 15.5);
  EXPECT_EQ(v.summary, "at least 16-way conflicts on average");
  EXPECT_NE(v.next.find("pad or swizzle"), std::string::npos);
}

TEST(BankAdvice, NoConflictsIsConflictFree) {
  EXPECT_EQ(judge(0, 1000).summary, "conflict-free");
  EXPECT_EQ(judge(50, 1000).summary, "conflict-free");  // 0.05: the residue
}

TEST(BankAdvice, InBetweenAsksForACloserLook) {
  const auto v = judge(500, 1000);
  EXPECT_EQ(v.summary, "a few conflicts");
  EXPECT_NE(v.next.find("grader banks"), std::string::npos);
}

}  // namespace
