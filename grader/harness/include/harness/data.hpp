/// @file data.hpp
/// @brief Test inputs and exact comparison with student-facing messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace harness {

/// `n` floats drawn from `seed`, deterministic per (seed, index): mostly values in [-0.5, 1.5)
/// (nonzero mean), some large (up to 1e6) and tiny (down to 1e-6) magnitudes, and about 5% the
/// values students use as flags (0 and -1). All finite.
std::vector<float> random_floats(std::size_t n, std::uint64_t seed);

/// Result of comparing an output with its reference, element by element.
struct Comparison {
  std::size_t total = 0;        ///< elements in the reference
  std::size_t wrong = 0;        ///< elements that differ from the reference (unwritten included)
  std::size_t unwritten = 0;    ///< elements still holding the poison bytes
  std::size_t first = 0;        ///< index of the first wrong element (valid when wrong > 0)
  float expected = 0, got = 0;  ///< values at `first`
  /** @var expected
      Reference value at `first` (`got`: the output's value there). */
  bool first_unwritten = false;  ///< the element at `first` still holds the poison bytes
  /// True when every element matches.
  bool ok() const { return wrong == 0; }
};

/// Exact (bitwise) comparison, for tasks whose math is exact (copies, transposes).
Comparison compare_exact(const std::vector<float>& expected, const std::vector<float>& got,
                         std::uint8_t poison_byte);

/// "1023 of 1023 elements wrong (1023 never written); first mismatch at out[0][5] (row 0,
/// col 5): expected 0.8125, got NaN (never written)", for a row-major output of `cols` columns.
std::string describe(const Comparison& c, std::size_t cols, const std::string& output_name = "out");

/// Shape as the grader prints it: "33x31".
std::string shape_name(long long rows, long long cols);

}  // namespace harness
