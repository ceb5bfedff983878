/// @file host_reference.hpp
/// @brief The data of lesson 13_matmul_tiled, shared by the hidden tests and the bench: the draw
/// of A and B (the same bits on the host and on the device), and of their magnitudes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "harness/draw.hpp"
#include "tolerance.hpp"

namespace matmul_tiled {

/// The values of A and B: 1/32 zeros and 1/32 minus ones (the values students use as flags),
/// 1/16 large ones uniform in [-32, 32), the rest uniform in [-0.75, 1.25) (a nonzero mean). The
/// mix of magnitudes makes the terms of a dot product differ by up to three orders of magnitude,
/// so a product rounded to 10 mantissa bits (TF32, half) shows against the FP32 tolerance
/// (tolerance.hpp), and the nonzero mean makes the running sums grow, as FP32 rounding errors do.
struct MatrixValues {
  /// Element `i` of the matrix drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    const std::uint64_t h = harness::element_hash(seed, i);
    const unsigned kind = static_cast<unsigned>(h & 63);
    const double u = harness::unit(harness::mix(h));
    if (kind < 2) return 0.0f;
    if (kind < 4) return -1.0f;
    if (kind < 8) return static_cast<float>((u - 0.5) * 64.0);  // exact: u has 53 bits
    return static_cast<float>(u * 2.0 - 0.75);
  }
};

/// |MatrixValues|: the draw of the magnitudes, for the device's sum of magnitudes (a product of
/// |A| and |B|).
struct AbsMatrixValues {
  /// |element `i`| of the matrix drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    const float v = MatrixValues{}(seed, i);
    return v < 0.0f ? -v : v;
  }
};

}  // namespace matmul_tiled
