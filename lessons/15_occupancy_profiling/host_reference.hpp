/// @file host_reference.hpp
/// Lesson 15's host side, shared by its hidden tests (grader/lessons/15_occupancy_profiling/
/// tests.cu) and its bench table (bench.cu): the data rules and the results computed on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/draw.hpp"
#include "occupancy.cuh"

namespace occupancy_profiling {

/// A nonzero integer in [-limit, limit] from (seed, i), each sign with probability 1/2.
HARNESS_HD inline int small_nonzero(std::uint64_t seed, std::size_t i, int limit) {
  const std::uint64_t r = harness::element_hash(seed, i);
  const int magnitude = 1 + static_cast<int>(r % static_cast<std::uint64_t>(limit));
  return (r >> 32) & 1 ? magnitude : -magnitude;
}

/// Pixel channels of step `registers`: nonzero integers in [-8, 8], as floats. With MatrixValues
/// every product is an integer of magnitude <= 32 and every sum of eight <= 256: exact in float,
/// so every order of the additions gives the same bits (outputs are compared bit for bit), and a
/// product left out or counted twice always changes the result.
struct PixelValues {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    return static_cast<float>(small_nonzero(seed, i, 8));
  }
};

/// Entries of M: nonzero integers in [-4, 4], as floats (see PixelValues).
struct MatrixValues {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    return static_cast<float>(small_nonzero(seed, i, 4));
  }
};

/// Elements of step `block_size`: nonzero integers in [-100, 100] (a segment's prefix stays below
/// 3,200 in magnitude; nonzero, so a dropped or doubled element changes every later prefix of its
/// segment).
struct SegmentValues {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD int operator()(std::uint64_t seed, std::size_t i) const {
    return small_nonzero(seed, i, 100);
  }
};

/// out = M v for every pixel of `in` (8 floats each), M row-major in `m` (64 floats).
inline std::vector<float> host_mix(const std::vector<float>& in, const std::vector<float>& m) {
  std::vector<float> out(in.size());
  for (std::size_t p = 0; p < in.size() / CHANNELS; ++p)
    for (int r = 0; r < CHANNELS; ++r) {
      float s = 0;
      for (int k = 0; k < CHANNELS; ++k) s += m[r * CHANNELS + k] * in[p * CHANNELS + k];
      out[p * CHANNELS + r] = s;
    }
  return out;
}

/// The inclusive scan of every segment of SEGMENT consecutive elements of x.
inline std::vector<int> host_segment_scan(const std::vector<int>& x) {
  std::vector<int> out(x.size());
  int sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sum = (i % SEGMENT == 0 ? 0 : sum) + x[i];
    out[i] = sum;
  }
  return out;
}

}  // namespace occupancy_profiling
