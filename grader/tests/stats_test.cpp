// Statistics and the gate decision: the numbers every verdict rests on.
#include <gtest/gtest.h>

#include <functional>

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

// n values spread evenly over [lo, hi].
std::vector<double> spread(std::size_t n, double lo, double hi) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * i / (n - 1.0));
  return v;
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

// A gate that is not a whole percentage (lesson 09's 95.5%) is printed as it is, never rounded.
TEST(Gate, AFractionalGateIsPrintedExactly) {
  const auto fail = decide_gate(around(0.906, 0.005), 0.955);
  EXPECT_NE(fail.reason.find("needs 95.5%"), std::string::npos) << fail.reason;
  const auto pass = decide_gate(around(0.97, 0.005), 0.85);
  EXPECT_NE(pass.reason.find("needs 85%:"), std::string::npos) << pass.reason;
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
  auto keep = [](const course::Summary& ratio, std::optional<double> gate, std::size_t pairs,
                 double seconds, const course::SamplingPolicy& policy) {
    return course::keep_sampling(course::sampling_state(ratio, gate, pairs, seconds, policy));
  };
  EXPECT_TRUE(keep(around(0.87, 0.001), 0.85, 10, 0.1, p));   // too few, not certain
  EXPECT_FALSE(keep(around(0.87, 0.001), 0.85, 30, 0.1, p));  // settled
  EXPECT_FALSE(keep(around(0.97, 0.001), 0.85, 10, 0.1, p));  // certain
  // Spread > 1% and the median's interval reaching the impossible bound (1.05): more pairs.
  EXPECT_TRUE(keep(summarize(spread(30, 0.95, 1.10)), 0.85, 30, 0.1, p));
  // Spread > 1%, but the median's interval clear of the gate and the bound: stop.
  EXPECT_FALSE(keep(summarize(spread(30, 0.87, 1.07)), 0.85, 30, 0.1, p));
  EXPECT_TRUE(keep(around(0.85, 0.001), 0.85, 30, 0.1, p));            // straddles
  EXPECT_FALSE(keep(around(0.85, 0.001), 0.85, p.max_pairs, 0.1, p));  // cap
  EXPECT_FALSE(keep(around(0.97, 0.05), 0.85, 30, p.max_seconds, p));  // time cap
}

TEST(Sampling, StateSaysWhy) {
  using S = course::SamplingState;
  course::SamplingPolicy p;
  EXPECT_EQ(course::sampling_state(around(0.85, 0.001), 0.85, 10, 0.1, p), S::below_min_pairs);
  EXPECT_EQ(course::sampling_state(around(0.87, 0.001), 0.85, 30, 0.1, p), S::settled);
  EXPECT_EQ(course::sampling_state(summarize(spread(30, 0.95, 1.10)), 0.85, 30, 0.1, p),
            S::too_wide);
  EXPECT_EQ(course::sampling_state(summarize(spread(30, 0.87, 1.07)), 0.85, 30, 0.1, p),
            S::median_certain);
  EXPECT_EQ(course::sampling_state(around(0.85, 0.001), 0.85, 30, 0.1, p), S::straddles_gate);
  // Straddling and too wide at once: the gate is named, it is the reason that matters.
  EXPECT_EQ(course::sampling_state(around(0.85, 0.05), 0.85, 30, 0.1, p), S::straddles_gate);
  // A cap wins over everything but the minimum.
  EXPECT_EQ(course::sampling_state(around(0.85, 0.05), 0.85, p.max_pairs, 0.1, p), S::capped);
  EXPECT_EQ(course::sampling_state(around(0.85, 0.05), 0.85, 30, p.max_seconds, p), S::capped);
  // q1 < gate <= q3, as decide_gate: a gate exactly at q1 is not straddled, one at q3 is.
  const course::Summary s = around(0.85, 0.01);  // q1 0.84, q3 0.86
  EXPECT_EQ(course::sampling_state(s, s.q1, 30, 0.1, p), S::too_wide);
  EXPECT_EQ(course::sampling_state(s, s.q3, 30, 0.1, p), S::straddles_gate);
  // Without a gate only the impossible bound and the width matter.
  EXPECT_EQ(course::sampling_state(around(0.85, 0.005), std::nullopt, 30, 0.1, p), S::certain);
  EXPECT_EQ(course::sampling_state(around(1.0, 0.03), std::nullopt, 30, 0.1, p), S::too_wide);
  // Which states ask for more pairs.
  EXPECT_TRUE(course::keep_sampling(S::below_min_pairs));
  EXPECT_TRUE(course::keep_sampling(S::straddles_gate));
  EXPECT_TRUE(course::keep_sampling(S::too_wide));
  EXPECT_FALSE(course::keep_sampling(S::capped));
  EXPECT_FALSE(course::keep_sampling(S::settled));
  EXPECT_FALSE(course::keep_sampling(S::certain));
  EXPECT_FALSE(course::keep_sampling(S::median_certain));
}

TEST(Summary, TheMediansConfidenceIntervalNarrowsWithMoreValues) {
  const course::Summary few = summarize({5, 1, 4, 2, 3});  // k = 1: min and max
  EXPECT_DOUBLE_EQ(few.median_low, 1);
  EXPECT_DOUBLE_EQ(few.median_high, 5);
  std::vector<double> v;
  for (int i = 30; i >= 1; --i) v.push_back(i);
  const course::Summary thirty = summarize(v);  // k = floor((30 - 2.576 sqrt(30)) / 2) = 7
  EXPECT_DOUBLE_EQ(thirty.median_low, 7);
  EXPECT_DOUBLE_EQ(thirty.median_high, 24);
  v.clear();
  for (int i = 1; i <= 600; ++i) v.push_back(i);
  const course::Summary many = summarize(v);  // k = floor((600 - 63.1) / 2) = 268
  EXPECT_DOUBLE_EQ(many.median_low, 268);
  EXPECT_DOUBLE_EQ(many.median_high, 333);
  EXPECT_LT(many.median_high - many.median_low, many.q3 - many.q1);
}

// Pairs whose spread never falls under 1% (two fast kernels, each jittering by a few percent)
// stop once the median is pinned down clear of the gate and of the impossible bound, instead of
// running on to the 600-pair cap; where the interval still reaches either, they go on.
TEST(Sampling, ANoisyMedianClearOfGateAndBoundStops) {
  using S = course::SamplingState;
  const course::SamplingPolicy p;
  const course::Summary noisy = summarize(spread(30, 0.99, 1.04));  // IQR 2.5 points
  EXPECT_GT(noisy.rel_spread(), p.target_rel_spread);
  EXPECT_EQ(course::sampling_state(noisy, 0.80, 30, 0.1, p), S::median_certain);
  EXPECT_EQ(course::sampling_state(noisy, std::nullopt, 30, 0.1, p), S::median_certain);
  EXPECT_EQ(course::sampling_state(noisy, 0.80, 29, 0.1, p), S::below_min_pairs);
  // The interval reaches the impossible bound (1.05), or a lower one: more pairs.
  EXPECT_EQ(course::sampling_state(summarize(spread(30, 1.00, 1.07)), 0.80, 30, 0.1, p),
            S::too_wide);
  EXPECT_EQ(course::sampling_state(noisy, 0.80, 30, 0.1, p, 1.02), S::too_wide);
  // The gate inside the interval but outside the interquartile range: more pairs...
  const course::Summary near = summarize(spread(30, 0.80, 0.90));  // IQR [0.825, 0.875]
  EXPECT_EQ(course::sampling_state(near, 0.83, 30, 0.1, p), S::straddles_gate);
  EXPECT_EQ(course::sampling_state(near, 0.8225, 30, 0.1, p), S::too_wide);
  // ...until enough of them narrow it: at 600 pairs it no longer reaches the gate.
  EXPECT_EQ(course::sampling_state(summarize(spread(600, 0.80, 0.90)), 0.8225, 600, 0.1, p),
            S::capped);
  EXPECT_EQ(course::sampling_state(summarize(spread(300, 0.80, 0.90)), 0.8225, 300, 0.1, p),
            S::median_certain);
}

// Lesson 14's wall-clock policy (pairs_before_time_cap = min_pairs): its 2 s cap never stops a slow
// host's sampling before 30 pairs; once they have run it does, and max_pairs always does.
TEST(Sampling, ATimeCapCanWaitForTheMinimumPairs) {
  using S = course::SamplingState;
  course::SamplingPolicy p;
  p.max_seconds = 2.0;
  p.pairs_before_time_cap = p.min_pairs;            // 30
  const course::Summary wide = around(0.97, 0.05);  // not certain, too wide to settle
  EXPECT_EQ(course::sampling_state(wide, 0.85, 14, 2.5, p), S::below_min_pairs)
      << "2 s of a slow host's pairs ended the sampling before the minimum";
  EXPECT_TRUE(course::keep_sampling(course::sampling_state(wide, 0.85, 20, 2.5, p)));
  EXPECT_EQ(course::sampling_state(wide, 0.85, 30, 2.5, p), S::capped);
  EXPECT_EQ(course::sampling_state(wide, 0.85, 31, 2.5, p), S::capped);
  EXPECT_EQ(course::sampling_state(wide, 0.85, 29, 1.0, p), S::below_min_pairs);  // no cap yet
  p.pairs_before_time_cap = 50;
  p.max_pairs = 40;
  EXPECT_EQ(course::sampling_state(wide, 0.85, 40, 2.5, p), S::capped);
}

// A verdict that more pairs cannot change stops at the first check (10 pairs): a student waits
// seconds, not the 30+ pairs a close call takes.
TEST(Sampling, CertainVerdictsStopEarly) {
  using S = course::SamplingState;
  course::SamplingPolicy p;
  EXPECT_EQ(course::sampling_state(around(0.97, 0.005), 0.85, 9, 0.1, p), S::below_min_pairs);
  EXPECT_EQ(course::sampling_state(around(0.97, 0.005), 0.85, 10, 0.1, p), S::certain);
  EXPECT_EQ(course::sampling_state(around(0.48, 0.005), 0.85, 10, 0.1, p), S::certain);
  EXPECT_EQ(course::sampling_state(around(0.15, 0.005), std::nullopt, 10, 0.1, p), S::certain);
  // Within 3 points of the gate, even tight: not certain, so the minimum of 30 pairs applies.
  EXPECT_EQ(course::sampling_state(around(0.875, 0.001), 0.85, 10, 0.1, p), S::below_min_pairs);
  EXPECT_EQ(course::sampling_state(around(0.825, 0.001), 0.85, 10, 0.1, p), S::below_min_pairs);
  // Far from the gate but noisy (an interquartile range of 5 points): not certain either.
  EXPECT_EQ(course::sampling_state(around(0.97, 0.025), 0.85, 10, 0.1, p), S::below_min_pairs);
  // Near the impossible bound (a cheat or a miscalibrated rung): the full sample decides.
  EXPECT_EQ(course::sampling_state(around(1.03, 0.002), 0.85, 10, 0.1, p), S::below_min_pairs);
  EXPECT_EQ(course::sampling_state(around(1.03, 0.002), 0.85, 10, 0.1, p, 1.2), S::certain);
}

// A step without a gate: its figure informs, so a certain one stops at 5 pairs; near the
// impossible bound or noisy it samples as a gated step does. A gated step's policy is unchanged.
TEST(Sampling, StepsWithoutAGateStopAtFivePairsWhenCertain) {
  using S = course::SamplingState;
  const course::SamplingPolicy ungated = course::sampling_policy(std::nullopt);
  EXPECT_EQ(course::sampling_state(around(0.11, 0.002), std::nullopt, 4, 0.1, ungated),
            S::below_min_pairs);
  EXPECT_EQ(course::sampling_state(around(0.11, 0.002), std::nullopt, 5, 0.1, ungated), S::certain);
  EXPECT_EQ(course::sampling_state(around(1.03, 0.002), std::nullopt, 5, 0.1, ungated),
            S::below_min_pairs);
  EXPECT_EQ(course::sampling_state(around(0.5, 0.05), std::nullopt, 5, 0.1, ungated),
            S::below_min_pairs);
  const course::SamplingPolicy gated = course::sampling_policy(0.85);
  EXPECT_EQ(gated.early_pairs, course::SamplingPolicy{}.early_pairs);
  EXPECT_EQ(gated.min_pairs, course::SamplingPolicy{}.min_pairs);
  EXPECT_EQ(course::sampling_state(around(0.97, 0.005), 0.85, 5, 0.1, gated), S::below_min_pairs);
}

TEST(Remeasure, FirstStraddlingCheckIsKept) {
  using S = course::SamplingState;
  std::size_t r = 0;
  r = course::first_straddle(r, S::below_min_pairs, 10);
  r = course::first_straddle(r, S::too_wide, 30);
  EXPECT_EQ(r, 0u);
  r = course::first_straddle(r, S::straddles_gate, 40);
  EXPECT_EQ(r, 40u);
  r = course::first_straddle(r, S::straddles_gate, 50);  // later checks change nothing
  r = course::first_straddle(r, S::settled, 60);
  EXPECT_EQ(r, 40u);
  // A cap with the spread on the gate is a close call, not a re-measure: sampling stopped.
  EXPECT_EQ(course::first_straddle(0, S::capped, 600), 0u);
}

// harness::time_pairs's loop without a GPU: batches of 10 pairs, the ratio of pair i being
// ratio(i), until keep_sampling() says stop; no time passes.
struct Loop {
  std::size_t first_straddle = 0;  // 0: never re-measured
  std::size_t pairs = 0;
  course::GateDecision decision;
};
Loop run_loop(const std::function<double(std::size_t)>& ratio, std::optional<double> gate,
              const course::SamplingPolicy& p) {
  Loop loop;
  std::vector<double> ratios;
  for (;;) {
    for (int i = 0; i < 10; ++i) ratios.push_back(ratio(ratios.size()));
    const course::Summary s = summarize(ratios);
    const course::SamplingState state = course::sampling_state(s, gate, ratios.size(), 0, p);
    loop.first_straddle = course::first_straddle(loop.first_straddle, state, ratios.size());
    if (!course::keep_sampling(state)) {
      loop.pairs = ratios.size();
      loop.decision = decide_gate(s, gate);
      return loop;
    }
  }
}

TEST(Remeasure, LoopThatStraddledThenCleared) {
  course::SamplingPolicy p;
  p.target_rel_spread = 0.1;
  // 30 pairs alternating 80% and 90% straddle an 85% gate; then 95% until q1 clears it (at 60).
  const Loop loop =
      run_loop([](std::size_t i) { return i < 30 ? (i % 2 ? 0.90 : 0.80) : 0.95; }, 0.85, p);
  EXPECT_EQ(loop.first_straddle, 30u);
  EXPECT_EQ(loop.pairs, 60u);
  EXPECT_FALSE(loop.decision.close_call);
  EXPECT_EQ(loop.decision.verdict, Verdict::pass);
}

TEST(Remeasure, LoopThatStraddledToTheCap) {
  course::SamplingPolicy p;
  p.max_pairs = 100;
  const Loop loop = run_loop([](std::size_t i) { return i % 2 ? 0.90 : 0.80; }, 0.85, p);
  EXPECT_EQ(loop.first_straddle, 30u);
  EXPECT_EQ(loop.pairs, 100u);
  EXPECT_TRUE(loop.decision.close_call);
}

TEST(Remeasure, FirstStraddleAfterTheMinimum) {
  course::SamplingPolicy p;
  p.max_pairs = 100;
  // At 30 pairs q3 is below the gate (not straddling) but the median's interval reaches it (the
  // seven pairs at 0.86): too wide; at 40 pairs q3 is above the gate: straddling.
  const Loop loop = run_loop(
      [](std::size_t i) { return i < 23   ? (i % 2 ? 0.80 : 0.70)
                                 : i < 30 ? 0.86
                                          : 0.95; }, 0.85, p);
  EXPECT_EQ(loop.first_straddle, 40u);
}

TEST(Remeasure, MorePairsForTheSpreadAloneIsNoRemeasure) {
  course::SamplingPolicy p;
  // Wide at first, far above the gate but reaching the impossible bound (1.05): more pairs than
  // the minimum (until the median's interval is clear of the bound, at 60), but not for the gate.
  const Loop wide =
      run_loop([](std::size_t i) { return i < 30 ? (i % 2 ? 1.08 : 0.98) : 0.90; }, 0.50, p);
  EXPECT_EQ(wide.pairs, 60u);
  EXPECT_EQ(wide.first_straddle, 0u);
  // No gate: nothing to straddle.
  EXPECT_EQ(
      run_loop([](std::size_t i) { return i % 2 ? 0.90 : 0.80; }, std::nullopt, p).first_straddle,
      0u);
  // Straddling when the cap is reached at the first check: a close call without a re-measure.
  p.max_pairs = p.min_pairs;
  const Loop capped = run_loop([](std::size_t i) { return i % 2 ? 0.90 : 0.80; }, 0.85, p);
  EXPECT_EQ(capped.first_straddle, 0u);
  EXPECT_EQ(capped.pairs, 30u);
  EXPECT_TRUE(capped.decision.close_call);
}

}  // namespace
