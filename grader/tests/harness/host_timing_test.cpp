// When lesson 14's wall-clock timing stops (harness::host_sampling_done(), no GPU needed): a
// certain or settled verdict at each tenth pair, the time cap of host_sampling_policy() (2 s) only
// once SamplingPolicy::min_pairs have run, so a slow host still gives a median of 30 pairs.
#include <gtest/gtest.h>

#include "harness/host_timing.hpp"

namespace {

using S = course::SamplingState;

TEST(HostSampling, TheTimeCapWaitsForTheMinimumPairs) {
  const course::SamplingPolicy p;  // min_pairs 30, max_pairs 600
  EXPECT_FALSE(harness::host_sampling_done(S::capped, 14, p))
      << "2 s of a slow host's pairs ended the sampling before the minimum";
  EXPECT_FALSE(harness::host_sampling_done(S::capped, 20, p));
  EXPECT_TRUE(harness::host_sampling_done(S::capped, 30, p));
  EXPECT_TRUE(harness::host_sampling_done(S::capped, 31, p));  // any pair, not only each tenth
}

TEST(HostSampling, ACertainOrSettledVerdictStopsAtATenthPair) {
  const course::SamplingPolicy p;
  EXPECT_TRUE(harness::host_sampling_done(S::certain, 10, p));
  EXPECT_FALSE(harness::host_sampling_done(S::certain, 11, p));
  EXPECT_TRUE(harness::host_sampling_done(S::settled, 40, p));
  for (const S going_on : {S::below_min_pairs, S::straddles_gate, S::too_wide})
    EXPECT_FALSE(harness::host_sampling_done(going_on, 40, p));
}

TEST(HostSampling, MaxPairsAlwaysStops) {
  course::SamplingPolicy p;
  p.min_pairs = 50;
  p.max_pairs = 40;
  EXPECT_TRUE(harness::host_sampling_done(S::capped, 40, p));
}

}  // namespace
