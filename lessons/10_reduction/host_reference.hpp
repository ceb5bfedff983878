/// @file host_reference.hpp
/// Lesson 10's data rules and host references, shared by its hidden tests
/// (grader/lessons/10_reduction/tests.cu), its bench tables (bench.cu) and its quiz pins: the
/// draws (harness/draw.hpp: element i from (seed, i) only, the same bits on the host and on the
/// device, so every timed launch gets fresh data), the row sums and arg max on the host, and the
/// error bound of the deterministic sum.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "harness/data.hpp"
#include "harness/draw.hpp"
#include "reduction.cuh"

namespace reduction {

/// Row sums' data: nonzero integers in [-8, 8] as floats. A row's partial sums, in any order of
/// additions that does not depend on the values, stay far below 2^24 in magnitude (a sum of m
/// independent symmetric terms in [-8, 8] reaches 2^24 with probability below
/// 2 exp(-2^49 / (256 m)), Hoeffding; m <= 2^27 here), so every row sum is exact and compared bit
/// for bit: a dropped or doubled element changes it.
struct SmallIntegers {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t r = harness::mix(seed + i);
    const float magnitude = static_cast<float>(1 + r % 8);
    return (r >> 32) & 1 ? magnitude : -magnitude;
  }
};

/// The deterministic sum's data: floats in [0.5, 1.5) with random low bits (a double in [0, 1)
/// from 53 random bits, plus 0.5, rounded once to float). Mean 1: a naive sequential float loop
/// over 2^25 of them rounds every addition past 2^24 to a multiple of 2 and loses two to three
/// digits (quiz_test.cpp checks it), while the order of additions of a parallel sum shows in the
/// last bits: float atomics, whose order changes from run to run, change the result.
struct PositiveMean {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    return static_cast<float>(harness::unit(harness::element_hash(seed, i)) + 0.5);
  }
};

/// arg_max's data: `minus_inf_per_64` elements in 64 are -infinity, the others whole numbers
/// top - k with k uniform in 0 .. 4095, so the maximum `top` repeats (about once in 4096
/// elements: hundreds of ties at 2^21 elements, thousands at 2^26) and every element is
/// negative when top < 0. minus_inf_per_64 = 64 makes every element -infinity.
struct ArgMaxValues {
  float top = -1.0f;         ///< the largest value an element can take
  int minus_inf_per_64 = 4;  ///< how many elements in 64 are -infinity
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t h = harness::element_hash(seed, i);
    if (static_cast<int>(h & 63) < minus_inf_per_64) return -INFINITY;
    return top - static_cast<float>(harness::mix(h) % 4096);
  }
};

/// Row sums of a rows x cols row-major matrix, in double (exact for SmallIntegers).
inline std::vector<double> host_row_sums(const std::vector<float>& x, long long rows,
                                         long long cols) {
  std::vector<double> sums(static_cast<std::size_t>(rows), 0.0);
  harness::parallel_for(
      static_cast<std::size_t>(rows),
      [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = begin; r < end; ++r) {
          double s = 0;
          const float* row = x.data() + r * static_cast<std::size_t>(cols);
          for (long long c = 0; c < cols; ++c) s += row[c];
          sums[r] = s;
        }
      },
      static_cast<std::size_t>(cols));
  return sums;
}

/// The index of the largest element, the lowest among equal maxima (0 when all are -infinity).
inline long long host_arg_max(const std::vector<float>& x) {
  long long best = 0;
  for (std::size_t i = 1; i < x.size(); ++i)
    if (x[i] > x[static_cast<std::size_t>(best)]) best = static_cast<long long>(i);
  return best;
}

/// The bound the deterministic sum is held to: |result - exact| <= deterministic_sum_bound(n,
/// sum of |x|). An order of additions whose longest chain of dependent additions has L links is
/// within L u sum|x| of the exact sum (u = 2^-24; first order, Higham, "Accuracy and Stability of
/// Numerical Algorithms", 2nd ed., section 4.2). The lesson's order, per thread of a block of
/// BLOCK_THREADS: in a tile, SUM_QUADS_PER_THREAD float4 of 2 levels each, or in the partial last
/// tile up to SUM_TILE / BLOCK_THREADS single elements (the longer chain: 64 links, which the
/// bound takes); 8 levels of the block's tree (5 shuffles, 3 for 8 warps); in pass 2,
/// ceil(tiles / BLOCK_THREADS) partials per thread and the tree's 8 levels again. The bound allows
/// 16 more links than that (room for another tree shape) and 1% for the higher-order terms. For
/// n = 2^25 it is about 6.3e-6 of sum|x|; a sequential float loop over PositiveMean data ends 3.6
/// to 24 times further off (seeds 1, 2, 3, 7 and 101; quiz_test.cpp checks it on other data).
inline double deterministic_sum_bound(long long n, double sum_abs) {
  const long long tiles = sum_tiles(n);
  const double tree = 8.0;  // log2(BLOCK_THREADS) levels
  const double links = SUM_TILE / BLOCK_THREADS + tree +
                       static_cast<double>((tiles + BLOCK_THREADS - 1) / BLOCK_THREADS) + tree +
                       16.0;
  return harness::float_rounding_bound(links, sum_abs);
}

}  // namespace reduction
