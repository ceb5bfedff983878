// Statistics and the gate decision: the numbers every verdict rests on.
#include <gtest/gtest.h>

#include "course/stats.hpp"

namespace {

using course::decide_gate;
using course::summarize;
using course::Verdict;

TEST(Summary, QuantilesInterpolateLikeNumpy) {
  const course::Summary s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  const course::Summary even = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);  // numpy.percentile([1,2,3,4], 25)
  EXPECT_DOUBLE_EQ(even.q3, 3.25);
  EXPECT_NEAR(even.rel_spread(), 1.5 / 2.5, 1e-12);
}

TEST(Summary, SingleValueAndEmpty) {
  const course::Summary s = summarize({7});
  EXPECT_DOUBLE_EQ(s.median, 7);
  EXPECT_DOUBLE_EQ(s.rel_spread(), 0);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

course::Summary around(double median, double half_iqr) {
  return summarize(
      {median - 2 * half_iqr, median - half_iqr, median, median + half_iqr, median + 2 * half_iqr});
}

TEST(Gate, ClearPassAndClearFail) {
  const auto pass = decide_gate(around(0.97, 0.005), 0.85);
  EXPECT_EQ(pass.verdict, Verdict::pass);
  EXPECT_FALSE(pass.close_call);
  EXPECT_NEAR(pass.margin, 0.12, 1e-9);
  const auto fail = decide_gate(around(0.48, 0.005), 0.85);
  EXPECT_EQ(fail.verdict, Verdict::fail);
  EXPECT_NEAR(fail.margin, -0.37, 1e-9);
  EXPECT_NE(fail.reason.find("short by 37.0 points"), std::string::npos) << fail.reason;
}

TEST(Gate, StraddlingIsDecidedByMedianAndFlagged) {
  const auto above = decide_gate(around(0.852, 0.01), 0.85);
  EXPECT_TRUE(above.close_call);
  EXPECT_EQ(above.verdict, Verdict::pass);
  const auto below = decide_gate(around(0.848, 0.01), 0.85);
  EXPECT_TRUE(below.close_call);
  EXPECT_EQ(below.verdict, Verdict::fail);
  EXPECT_NE(below.reason.find("close call"), std::string::npos);
}

TEST(Gate, FasterThanTheCeilingIsImpossible) {
  EXPECT_EQ(decide_gate(around(1.30, 0.01), 0.85).verdict, Verdict::impossible);
  EXPECT_EQ(decide_gate(around(1.30, 0.01), std::nullopt).verdict, Verdict::impossible);
  EXPECT_EQ(decide_gate(around(1.02, 0.01), 0.85).verdict, Verdict::pass);  // noise, not a cheat
}

TEST(Gate, NoGateMeansCorrectnessOnly) {
  const auto d = decide_gate(around(0.15, 0.01), std::nullopt);
  EXPECT_EQ(d.verdict, Verdict::pass);
  EXPECT_DOUBLE_EQ(d.margin, 0);
}

TEST(Sampling, StopsWhenTightAndClearOfTheGate) {
  course::SamplingPolicy p;
  EXPECT_TRUE(course::keep_sampling(around(0.97, 0.001), 0.85, 10, 0.1, p));   // too few pairs
  EXPECT_FALSE(course::keep_sampling(around(0.97, 0.001), 0.85, 30, 0.1, p));  // settled
  EXPECT_TRUE(course::keep_sampling(around(0.97, 0.05), 0.85, 30, 0.1, p));    // spread > 1%
  EXPECT_TRUE(course::keep_sampling(around(0.85, 0.001), 0.85, 30, 0.1, p));   // straddles
  EXPECT_FALSE(course::keep_sampling(around(0.85, 0.001), 0.85, p.max_pairs, 0.1, p));  // cap
  EXPECT_FALSE(course::keep_sampling(around(0.97, 0.05), 0.85, 30, p.max_seconds, p));  // time cap
}

}  // namespace
