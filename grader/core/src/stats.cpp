#include "course/stats.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace course {

namespace {
double quantile_sorted(const std::vector<double>& v, double q) {
  const double pos = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}
}  // namespace

double Summary::rel_spread() const {
  return median == 0 ? 0 : (q3 - q1) / std::fabs(median);
}

Summary summarize(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("summarize: no values");
  std::sort(values.begin(), values.end());
  Summary s;
  s.n = values.size();
  s.min = values.front();
  s.max = values.back();
  s.median = quantile_sorted(values, 0.5);
  s.q1 = quantile_sorted(values, 0.25);
  s.q3 = quantile_sorted(values, 0.75);
  const double n = static_cast<double>(values.size());
  const auto k =
      static_cast<std::size_t>(std::max(1.0, std::floor((n - 2.576 * std::sqrt(n)) / 2)));
  s.median_low = values[k - 1];
  s.median_high = values[values.size() - k];
  return s;
}

namespace {
// The verdict cannot change with more pairs: the interquartile range is tight enough and clear of
// the gate (when there is one) and of the impossible bound, each by the policy's margin.
bool certain(const Summary& ratio, std::optional<double> gate, const SamplingPolicy& policy,
             double impossible_above) {
  const double m = policy.certain_margin;
  if (ratio.q3 - ratio.q1 > policy.certain_iqr) return false;
  if (ratio.q3 > impossible_above - m) return false;
  return !gate || ratio.q1 >= *gate + m || ratio.q3 <= *gate - m;
}
}  // namespace

SamplingState sampling_state(const Summary& ratio, std::optional<double> gate, std::size_t pairs,
                             double elapsed_seconds, const SamplingPolicy& policy,
                             double impossible_above) {
  if (pairs < policy.early_pairs) return SamplingState::below_min_pairs;
  if (pairs >= policy.max_pairs ||
      (elapsed_seconds >= policy.max_seconds && pairs >= policy.pairs_before_time_cap))
    return SamplingState::capped;
  if (certain(ratio, gate, policy, impossible_above)) return SamplingState::certain;
  if (pairs < policy.min_pairs) return SamplingState::below_min_pairs;
  if (gate && ratio.q1 < *gate && *gate <= ratio.q3) return SamplingState::straddles_gate;
  if (ratio.rel_spread() <= policy.target_rel_spread) return SamplingState::settled;
  const bool clear_of_gate = !gate || ratio.median_low > *gate || ratio.median_high < *gate;
  return clear_of_gate && ratio.median_high < impossible_above ? SamplingState::median_certain
                                                               : SamplingState::too_wide;
}

SamplingPolicy sampling_policy(std::optional<double> gate) {
  SamplingPolicy p;
  if (!gate) p.early_pairs = kUngatedPairs;
  return p;
}

bool keep_sampling(SamplingState state) {
  return state == SamplingState::below_min_pairs || state == SamplingState::straddles_gate ||
         state == SamplingState::too_wide;
}

std::size_t first_straddle(std::size_t so_far, SamplingState state, std::size_t pairs) {
  if (so_far > 0) return so_far;
  return state == SamplingState::straddles_gate ? pairs : 0;
}

GateDecision decide_gate(const Summary& ratio, std::optional<double> gate,
                         double impossible_above) {
  GateDecision d;
  if (ratio.median > impossible_above) {
    d.verdict = Verdict::impossible;
    d.reason = fmt::format(
        "measured {:.0f}% of the ceiling, more than a kernel doing the whole task can reach "
        "(limit {:.0f}%): it probably skips work or reuses an earlier result",
        100 * ratio.median, 100 * impossible_above);
    return d;
  }
  if (!gate) {
    d.verdict = Verdict::pass;
    d.reason = "no speed gate for this step";
    return d;
  }
  d.margin = ratio.median - *gate;
  if (ratio.q1 >= *gate) {
    d.verdict = Verdict::pass;
  } else if (ratio.q3 < *gate) {
    d.verdict = Verdict::fail;
  } else {
    d.close_call = true;
    d.verdict = ratio.median >= *gate ? Verdict::pass : Verdict::fail;
  }
  d.reason = fmt::format(
      "{:.1f}% of the ceiling, needs {:g}%: {} by {:.1f} points{}", 100 * ratio.median, 100 * *gate,
      d.verdict == Verdict::pass ? "above" : "short", 100 * std::fabs(d.margin),
      d.close_call ? " (close call: samples straddle the gate, decided by median)" : "");
  return d;
}

}  // namespace course
