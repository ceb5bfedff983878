/// @file host_reference.hpp
/// Lesson 11's host side, shared by its hidden tests (grader/lessons/11_scan/tests.cu) and its
/// bench tables (bench.cu): the data rule of every step and the scans and compaction computed on
/// the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/data.hpp"
#include "harness/draw.hpp"
#include "scan.cuh"

namespace scan {

/// Largest magnitude of an element of ScanValues.
inline constexpr int kMaxMagnitude = 100;

/// The lesson's data as a draw (harness/draw.hpp): nonzero integers in [-100, 100], each sign
/// with probability 1/2, element i from (seed, i) only. Nonzero, so inclusive[i] and
/// exclusive[i] differ at every i and a dropped or doubled element changes every later prefix;
/// about half are kept by keep() (x > 0), and the kept values repeat rarely enough in a short
/// run that an order mixed up shows. Every prefix stays far inside an int (the argument is in
/// grader/lessons/11_scan/tests.cu).
struct ScanValues {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD int operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t r = harness::element_hash(seed, i);
    const int magnitude = 1 + static_cast<int>(r % kMaxMagnitude);
    return (r >> 32) & 1 ? magnitude : -magnitude;
  }
};

/// `n` values of ScanValues from `seed`, on the host (the bench's data).
inline std::vector<int> scan_values(std::size_t n, std::uint64_t seed) {
  return harness::draw_values<int>(n, seed, ScanValues{});
}

/// Adds as the device does: modulo 2^32 (the course's data never wraps; this keeps the host
/// reference defined if some other data did).
inline int wrapping_add(int a, int b) {
  return static_cast<int>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

/// The inclusive scan of every tile of `tile` consecutive elements on its own (the last tile cut
/// at x.size()); tile = x.size() or more gives the whole array's scan.
inline std::vector<int> tile_inclusive_scan(const std::vector<int>& x, std::size_t tile) {
  std::vector<int> out(x.size());
  int run = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i % tile == 0) run = 0;
    run = wrapping_add(run, x[i]);
    out[i] = run;
  }
  return out;
}

/// The inclusive scan of the whole array.
inline std::vector<int> inclusive_scan(const std::vector<int>& x) {
  return tile_inclusive_scan(x, x.size() + 1);
}

/// The elements of x that satisfy keep(), in their order.
inline std::vector<int> kept_elements(const std::vector<int>& x) {
  std::vector<int> out;
  out.reserve(x.size() / 2 + 1);
  for (int v : x)
    if (keep(v)) out.push_back(v);
  return out;
}

}  // namespace scan
