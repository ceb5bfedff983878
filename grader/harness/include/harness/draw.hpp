/// @file draw.hpp
/// @brief How test inputs are drawn: pure functions of (seed, index), the same bits on the host
/// and on the device.
///
/// A *draw* is a small copyable object with `T operator()(std::uint64_t seed, std::size_t i)
/// const` that gives element i of an input drawn from `seed`. Because element i depends on
/// (seed, i) only, the harness can draw an input on the device (harness/fill.cuh: one kernel, no
/// host loop, no upload) and a fresh one before every timed launch, and the host can draw the
/// very same values again to compute a reference. Lessons whose data follows rules of their own
/// (nonzero integers, whole numbers, a pool of values) write their own draw with HARNESS_HD on its
/// operator(), in the lesson's host_reference.hpp.
///
/// The arithmetic here is integer hashing plus IEEE double operations that are exact or rounded
/// once (no expression a compiler may contract into a fused multiply-add changes its result), so
/// host and device agree bit for bit.
#pragma once

#include <vector_types.h>  // float4

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define HARNESS_HD __host__ __device__
#else
#define HARNESS_HD
#endif

namespace harness {

/// Splits a seed into independent ones (splitmix64): `mix(seed + k)` for the k-th input.
HARNESS_HD inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// The hash of element i of a sequence drawn from `seed`.
HARNESS_HD inline std::uint64_t element_hash(std::uint64_t seed, std::size_t i) {
  return mix(mix(seed) ^ (static_cast<std::uint64_t>(i) * 0xD1B54A32D192ED03ull));
}

/// A double in [0, 1) from the top 53 bits of `bits` (exact).
HARNESS_HD inline double unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

/// The course's mix of real values from one hash: 1/32 zeros, 1/32 minus ones (the values
/// students use as flags), 6/64 large magnitudes (up to 1e6), 4/64 tiny ones (down to 1e-6), the
/// rest in [-0.5, 1.5) (a nonzero mean). Every operation is exact or a single rounding.
HARNESS_HD inline double mixed_value(std::uint64_t h) {
  const unsigned kind = static_cast<unsigned>(h & 63);
  const double u = unit(mix(h));
  if (kind < 2) return 0.0;
  if (kind < 4) return -1.0;
  if (kind < 10) return (u - 0.5) * 2e6;
  if (kind < 14) return (u + 0.01) * 1e-6;
  return u * 2.0 - 0.5;  // u * 2 is exact: a fused multiply-add rounds the same
}

/// The course's random values of T (see random_values() in harness/data.hpp), as a draw.
template <typename T>
struct RandomValues;

/// Floats: mixed_value() rounded to float.
template <>
struct RandomValues<float> {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    return static_cast<float>(mixed_value(element_hash(seed, i)));
  }
};

/// Doubles: mixed_value().
template <>
struct RandomValues<double> {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD double operator()(std::uint64_t seed, std::size_t i) const {
    return mixed_value(element_hash(seed, i));
  }
};

/// Ints: mostly in [-1000, 1000], 1/16 up to +-10^6, 1/32 zeros and 1/32 minus ones.
template <>
struct RandomValues<int> {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD int operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t h = element_hash(seed, i);
    const unsigned kind = static_cast<unsigned>(h & 63);
    const std::uint64_t r = mix(h);
    if (kind < 2) return 0;
    if (kind < 4) return -1;
    if (kind < 8) return static_cast<int>(r % 2000001) - 1000000;
    return static_cast<int>(r % 2001) - 1000;
  }
};

/// Unsigned: in [0, 10^6], 1/32 zeros.
template <>
struct RandomValues<unsigned> {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD unsigned operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t h = element_hash(seed, i);
    return (h & 31) == 0 ? 0u : static_cast<unsigned>(mix(h) % 1000001);
  }
};

/// Bytes: uniform over 0..255.
template <>
struct RandomValues<std::uint8_t> {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD std::uint8_t operator()(std::uint64_t seed, std::size_t i) const {
    return static_cast<std::uint8_t>(mix(element_hash(seed, i)) >> 56);
  }
};

/// float4: floats 4i .. 4i + 3 of RandomValues<float>.
template <>
struct RandomValues<float4> {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float4 operator()(std::uint64_t seed, std::size_t i) const {
    const RandomValues<float> f;
    float4 v;
    v.x = f(seed, 4 * i);
    v.y = f(seed, 4 * i + 1);
    v.z = f(seed, 4 * i + 2);
    v.w = f(seed, 4 * i + 3);
    return v;
  }
};

/// Element i of the values `draw` gives from `seed`: a device reference (harness::Reference) for a
/// copy, and what an input still holds when the kernel left it unchanged (harness/fill.cuh).
template <typename T, typename Draw = RandomValues<T>>
struct DrawnElement {
  std::uint64_t seed;  ///< the input's seed (Input::seed())
  Draw draw = {};      ///< the input's draw
  /// Element `i` as drawn.
  HARNESS_HD T operator()(std::size_t i) const { return draw(seed, i); }
};

/// A device reference (harness::Reference) for a transpose: element i of the cols x rows
/// transpose of the rows x cols row-major matrix drawn by `draw` from `seed`, that is
/// out[c][r] = in[r][c] with i = c * rows + r. Lessons 07 and 09.
template <typename T, typename Draw = RandomValues<T>>
struct TransposeOfDraw {
  std::uint64_t seed;  ///< the input's seed (Input::seed())
  std::size_t rows;    ///< the input's rows
  std::size_t cols;    ///< the input's columns
  Draw draw = {};      ///< the input's draw
  /// Element `i` of the transpose.
  HARNESS_HD T operator()(std::size_t i) const {
    const std::size_t c = i / rows, r = i % rows;
    return draw(seed, r * cols + c);
  }
};

}  // namespace harness
