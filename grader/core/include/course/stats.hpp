/// @file stats.hpp
/// @brief Robust summaries of repeated timings, and the speed-gate decision built on them.
///
/// Method (harness/timing.hpp): the student's kernel and the ceiling kernel are timed in
/// interleaved pairs (A B A B ...), each sample after an L2 flush. Each pair gives one ratio r =
/// t_ceiling / t_student = (student GB/s) / (ceiling GB/s), since both move the same bytes. Pairing
/// cancels slow drifts (clocks, temperature) that would bias two separate medians.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "course/status.hpp"

namespace course {

/// Order statistics of a sample. Quantiles interpolate linearly between order statistics
/// (Hyndman-Fan type 7, as numpy's default).
struct Summary {
  std::size_t n = 0;  ///< number of values
  /// Median (0.5 quantile).
  double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
  /** @var q1
      First quartile (0.25 quantile). */
  /** @var q3
      Third quartile (0.75 quantile). */
  /** @var min
      Smallest value. */
  /** @var max
      Largest value. */
  // [median_low, median_high]: a distribution-free confidence interval of the median, the order
  // statistics x_(k) and x_(n+1-k) (1-based), k = floor((n - 2.576 sqrt(n)) / 2) from the normal
  // approximation of Binomial(n, 1/2), at least 1 (so [min, max] up to n = 13). Its coverage is
  // at least 99% from n = 8 on (the floor makes it conservative: 99.86% at n = 30). The sign-test
  // interval of nonparametric statistics (e.g. Conover, Practical Nonparametric Statistics, 3rd
  // ed., 3.6); unlike the interquartile range it narrows as values are added, about as
  // 1/sqrt(n).
  double median_low = 0;   ///< lower end of the median's 99% confidence interval (see above)
  double median_high = 0;  ///< upper end of the median's 99% confidence interval (see above)
  /// Interquartile range over the median, e.g. 0.01 = 1%. 0 when the median is 0.
  double rel_spread() const;
};

/// Order statistics of `values` (any order; taken by value and sorted).
/// @throws std::invalid_argument when `values` is empty.
Summary summarize(std::vector<double> values);

/// How many interleaved pairs to take. Sampling stops early once the verdict is certain (after
/// `early_pairs`, the ratio's interquartile range is at least `certain_margin` away from the gate
/// and from the impossible bound, and at most `certain_iqr` wide);
/// otherwise, after `min_pairs`, once the interquartile range does not straddle the gate and either
/// the spread is under `target_rel_spread` or the median's confidence interval
/// (Summary::median_low, median_high) is clear of the gate and below the impossible bound; or at a
/// cap.
struct SamplingPolicy {
  std::size_t early_pairs = 10;     ///< the earliest check at which a certain verdict stops
  std::size_t min_pairs = 30;       ///< a verdict not yet certain takes at least this many pairs
  std::size_t max_pairs = 600;      ///< never more than this many
  double target_rel_spread = 0.01;  ///< stop when Summary::rel_spread() is at most this (1%)
  /// Distance of the interquartile range from the gate (a fraction of the ceiling: 0.03 = 3
  /// points) at which the verdict counts as certain. Our gates sit at least 5 points from the
  /// solution and from the nearest wrong kernel (calibration.md of each lesson), and repeated
  /// runs of one kernel moved its median by about a point (docs/measured/H200.md).
  double certain_margin = 0.03;
  /// Widest interquartile range (a fraction of the ceiling: 0.02 = 2 points) of a certain
  /// verdict, so that its median is as good as the figures the gates were calibrated on.
  double certain_iqr = 0.02;
  double max_seconds = 5.0;  ///< wall-clock cap on the timing loop
  /// Pairs that must have run before max_seconds stops the loop (0: it stops at once). Lesson
  /// 14's wall-clock policy (harness/src/host_timing.cpp) asks min_pairs, so that its 2 s on a
  /// host slower than ours still gives the median of that many.
  std::size_t pairs_before_time_cap = 0;
};

/// The policy of a timed step: SamplingPolicy{} when it has a speed gate. Without one its figure
/// only informs, so a certain one (tight, and clear of the impossible bound) stops after
/// kUngatedPairs pairs instead of 10; anything else samples as with a gate. On our H200 lesson
/// 13's two steps without a gate spent 0.73 s of a full grade timing 10 pairs of 4096^3 products
/// (docs/measured/H200.md, twelfth session).
SamplingPolicy sampling_policy(std::optional<double> gate);

/// Pairs after which a step without a speed gate may stop (sampling_policy()).
inline constexpr std::size_t kUngatedPairs = 5;

/// Where sampling stands at one check (one batch of pairs taken), and why: the reason
/// keep_sampling() goes on or stops. The first that applies, in this order.
enum class SamplingState {
  below_min_pairs,  ///< fewer than early_pairs, or fewer than min_pairs and not certain: go on
  capped,           ///< max_pairs or max_seconds reached: stop, whatever the ratios look like
  certain,          ///< far enough from the gate and the impossible bound: stop
  straddles_gate,   ///< the ratio's interquartile range straddles the gate: go on (re-measure)
  settled,          ///< spread within SamplingPolicy::target_rel_spread, clear of the gate: stop
  /// Wider than target_rel_spread, but the median's 99% confidence interval is clear of the gate
  /// and below the impossible bound: more pairs would narrow it, not move the verdict. Stop. (On
  /// our H200, 05's and 10's solutions against CUB pair with an interquartile range of 2-3 points
  /// and sampled to the 600-pair cap, 0.34 and 0.48 s, until this state existed:
  /// docs/measured/H200.md, sixteenth session.)
  median_certain,
  /// Wider than target_rel_spread, and the median's confidence interval reaches the gate or the
  /// impossible bound: go on.
  too_wide,
};

/// A median ratio above this is rejected: no kernel that does the whole task beats the copy rung
/// of the same geometry by more than noise.
inline constexpr double kImpossibleRatio = 1.05;

/// Where sampling stands after `pairs` pairs taken in `elapsed_seconds` (see SamplingState).
/// The interquartile range straddles the gate when q1 < gate <= q3 (as in decide_gate()).
/// `impossible_above` is the step's impossible bound (decide_gate()).
SamplingState sampling_state(const Summary& ratio, std::optional<double> gate, std::size_t pairs,
                             double elapsed_seconds, const SamplingPolicy& policy,
                             double impossible_above = kImpossibleRatio);

/// True when `state` asks for more pairs: below_min_pairs, straddles_gate or too_wide.
bool keep_sampling(SamplingState state);

/// Whether a timing loop was re-measured because the gate was in doubt, folded in one check at a
/// time: the pairs taken at the first check in state straddles_gate (at least min_pairs, no cap
/// reached, the interquartile range straddling the gate, so more pairs were taken for that
/// reason), or 0 while there was none. The verdict is still decided on all the pairs in the end
/// (decide_gate()); GateDecision::close_call says whether they still straddled.
/// @param so_far what the earlier checks of the loop gave (0 before the first)
/// @param state  this check's sampling_state()
/// @param pairs  pairs taken at this check
/// @return `so_far` when it is set, else `pairs` in state straddles_gate, else 0
std::size_t first_straddle(std::size_t so_far, SamplingState state, std::size_t pairs);

/// The verdict on one speed gate.
struct GateDecision {
  Verdict verdict = Verdict::fail;  ///< pass, fail or impossible
  bool close_call =
      false;           ///< the ratio's interquartile range straddled the gate: decided by median
  double margin = 0;   ///< median ratio - gate (fraction of ceiling; + passes); 0 without a gate
  std::string reason;  ///< one sentence for the student
};

/// Decides a gate from the summary of per-pair ratios. Without a gate the step is correctness
/// only and the verdict is pass unless the speed is impossible.
GateDecision decide_gate(const Summary& ratio, std::optional<double> gate,
                         double impossible_above = kImpossibleRatio);

}  // namespace course
