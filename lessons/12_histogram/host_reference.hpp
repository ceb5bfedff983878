/// @file host_reference.hpp
/// Lesson 12's host side, shared by its hidden tests (grader/lessons/12_histogram/tests.cu) and
/// its bench tables (bench.cu): the data rule of every step and the histogram computed on the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness/data.hpp"
#include "harness/draw.hpp"
#include "histogram.cuh"

namespace histogram {

/// The lesson's data as a draw (harness/draw.hpp): bytes of which about `share_percent` percent
/// equal one value, the *hot* byte, and the rest are uniform over 0 .. 255. Byte i is the hot
/// byte when its hash modulo 100 is below share_percent, and otherwise a uniform byte from other
/// bits of the same hash (which is the hot byte too once in 256 times): the hot bin holds
/// share + (1 - share) / 256 of the bytes on average, every other bin (1 - share) / 256. The hot
/// byte comes from the seed alone (hot_byte()): a new one for every draw, so no kernel can expect
/// it, and half the time it is 128 or above. share_percent = 0 gives uniform bytes. The sweep of
/// 10%, 40% and 90% follows the contention parameter of GPU MODE's histogram problems (a share of
/// positions set to one value, the rest uniform).
struct SkewedBytes {
  int share_percent = 0;  ///< 0 .. 100

  /// The hot byte of the draw from `seed`.
  HARNESS_HD static std::uint8_t hot_byte(std::uint64_t seed) {
    return static_cast<std::uint8_t>(harness::mix(seed ^ 0x68697374ull) >> 56);
  }
  /// Byte `i` of the bytes drawn from `seed`.
  HARNESS_HD std::uint8_t operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t h = harness::element_hash(seed, i);
    if (static_cast<int>(h % 100) < share_percent) return hot_byte(seed);
    return static_cast<std::uint8_t>(h >> 56);
  }
};

/// The share of the hot byte in each timed regime, in percent, as the steps name them.
inline constexpr int kSkewShares[] = {10, 40, 90};

/// The histogram of `data` on the host: counts[b] = how many bytes equal b.
inline std::vector<unsigned> host_histogram(const std::vector<std::uint8_t>& data) {
  std::vector<unsigned> counts(BINS, 0u);
  for (std::uint8_t b : data) ++counts[b];
  return counts;
}

/// `n` bytes of SkewedBytes{share_percent} from `seed`, on the host (the bench's data).
inline std::vector<std::uint8_t> skewed_bytes(std::size_t n, std::uint64_t seed,
                                              int share_percent) {
  return harness::draw_values<std::uint8_t>(n, seed, SkewedBytes{share_percent});
}

}  // namespace histogram
