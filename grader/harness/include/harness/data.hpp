/// @file data.hpp
/// @brief Test inputs (typed, seeded) and element-wise comparison with student-facing wording.
#pragma once

#include <vector_types.h>  // float4

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "harness/draw.hpp"

namespace harness {

/// `n` floats drawn from `seed`, deterministic per (seed, index): mostly values in [-0.5, 1.5)
/// (nonzero mean), some large (up to 1e6) and tiny (down to 1e-6) magnitudes, and about 6% the
/// values students use as flags (0 and -1). All finite, so never a sentinel (harness/buffer.hpp).
std::vector<float> random_floats(std::size_t n, std::uint64_t seed);

/// `n` values of T drawn from `seed`, deterministic per (seed, index). Defined for:
/// - float: random_floats(); double: the same mix in double precision;
/// - int: mostly in [-1000, 1000], some up to +-10^6, about 6% 0 and -1;
/// - unsigned: in [0, 10^6], about 3% 0;
/// - std::uint8_t: uniform over 0..255 (so an 8-bit input may hold kOutputPoison's byte: the one
///   type whose output guards cannot be told apart from every input value);
/// - float4: four random_floats() values per element.
/// None holds the kOutputPoison pattern (except bytes, as noted). The kInputGuard pattern is a NaN
/// as a float, so no float input holds it; as an int it is -1, a flag value the ints do hold, so
/// a kernel that writes -1 past the end of an int input would not show.
template <typename T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed);

/// Runs `chunk(begin, end)` over [0, n) split into contiguous ranges, one per hardware thread (up
/// to 16, and no more than one per 2^20 elements of work, below which a thread costs more than it
/// saves). For host references and checks of the timing shapes (2^26 elements and more); the
/// ranges must write disjoint elements.
/// @param n                 items, e.g. elements or bands of rows
/// @param chunk             does items [begin, end)
/// @param elements_per_item elements each item touches (e.g. the elements of a band of rows)
void parallel_for(std::size_t n,
                  const std::function<void(std::size_t begin, std::size_t end)>& chunk,
                  std::size_t elements_per_item = 1);

/// `n` values of `draw` (harness/draw.hpp) from `seed`, drawn on the host on all cores: element
/// i is draw(seed, i), the same bits the device draws (harness/fill.cuh).
template <typename T, typename Draw>
std::vector<T> draw_values(std::size_t n, std::uint64_t seed, Draw draw) {
  std::vector<T> v(n);
  parallel_for(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) v[i] = draw(seed, i);
  });
  return v;
}

/// A value as a student reads it: fmt's shortest round-trip form for numbers ("0.8125",
/// "-1.6947657e+38"), "(x, y, z, w)" for float4.
template <typename T>
std::string show(const T& v);

/// Result of comparing an output with its reference, element by element.
struct Mismatches {
  std::size_t total = 0;         ///< elements in the reference
  std::size_t wrong = 0;         ///< elements that differ from it (unwritten included)
  std::size_t unwritten = 0;     ///< wrong elements that still hold their value from before
  std::size_t first = 0;         ///< index of the first wrong element (valid when wrong > 0)
  std::string expected;          ///< the reference's value at `first`, as show() writes it
  std::string got;               ///< the output's value at `first`
  bool first_unwritten = false;  ///< the element at `first` was never written
  bool ok() const { return wrong == 0; }  ///< every element matches
};

/// Where an element sits, in the lesson's own words: given the output's name and an element's
/// flat index, e.g. "out[3][5] (row 3, col 5)". See flat() and row_major().
using Where = std::function<std::string(const std::string& name, std::size_t index)>;

/// The failure message of a comparison, as every case words it: "c: 3 of 10 elements wrong (1
/// never written); first mismatch at c[4]: expected 1.5, got 2"; "(N never written)" only when N
/// > 0, so the phrase diagnoses a kernel that skips elements and never one that writes wrong ones.
/// @param name  the output's name, e.g. "c"
/// @param m     the comparison (not ok())
/// @param where locates the first mismatch in the lesson's coordinates
/// @param never what unwritten elements are called ("never written", "never updated")
std::string mismatch_message(const std::string& name, const Mismatches& m, const Where& where,
                             const char* never = "never written");

/// "out[42]".
Where flat();
/// "out[3][5] (row 3, col 5)" for a row-major array of `cols` columns.
Where row_major(std::size_t cols);

/// A reference value with its tolerance: an element passes when |got - exact| <= tolerance.
/// What a device reference of a tolerant comparison gives per element (Case::expect_near).
struct Near {
  double exact = 0;      ///< the exact value (double precision)
  double tolerance = 0;  ///< how far from it a right element may be, >= 0
};

/// How far a float result may be from the exact one when its longest chain of roundings (additions,
/// multiplications or fused multiply-adds, one after the other) has `links` of them and its terms'
/// magnitudes sum to `sum_abs`: 1.01 x links x 2^-24 x sum_abs. That is Higham's gamma_links
/// (links u / (1 - links u), u = 2^-24: "Accuracy and Stability of Numerical Algorithms", 2nd ed.,
/// sections 3.1 and 4.2), for any order and tree of the operations; the 1% covers 1 / (1 - links u)
/// while links u <= 0.0099, i.e. up to about 166,000 links. Inline: the lessons' header-only host
/// references use it too.
inline double float_rounding_bound(double links, double sum_abs) {
  return 1.01 * links * std::ldexp(1.0, -24) * sum_abs;
}

/// Tells whether element `i` of an output still holds what it held before the launch.
using Unwritten = std::function<bool(std::size_t i)>;

/// The host reference of a transpose: `in` is rows x cols, row-major; the result is cols x rows,
/// row-major (out[c][r] = in[r][c]). Works in 64x64 blocks for cache locality, bands of 64 input
/// rows on all cores (each band writes its own output columns). Used by lessons 07 and 09 and
/// their bench tables. @throws std::invalid_argument when in.size() != rows * cols.
std::vector<float> host_transpose(const std::vector<float>& in, int rows, int cols);

/// Element-wise comparison over all cores: `wrong_at(i)` says whether element i is wrong,
/// `unwritten(i)` whether a wrong one was never written, `show_at(i)` fills the first mismatch's
/// expected and got. Counts and the first index are those of a serial scan.
/// @throws std::logic_error when the output (`compared` elements) and its reference (`total`)
///   differ in size: a mistake in the hidden test, which would leave elements unchecked.
Mismatches compare_elements(std::size_t total, std::size_t compared,
                            const std::function<bool(std::size_t)>& wrong_at,
                            const Unwritten& unwritten,
                            const std::function<void(std::size_t, Mismatches&)>& show_at);

/// Exact comparison, bit for bit, for tasks whose math is exact (copies, transposes, integer
/// arithmetic, a product of two floats).
template <typename T>
Mismatches compare_bits(const std::vector<T>& expected, const std::vector<T>& got,
                        const Unwritten& unwritten) {
  static_assert(std::is_trivially_copyable_v<T>, "compared byte for byte");
  return compare_elements(
      expected.size(), got.size(),
      [&](std::size_t i) { return std::memcmp(&expected[i], &got[i], sizeof(T)) != 0; }, unwritten,
      [&](std::size_t i, Mismatches& m) {
        m.expected = show(expected[i]);
        m.got = show(got[i]);
      });
}

/// Comparison within a tolerance: element i is right when it is finite and
/// |got[i] - exact[i]| <= tolerance[i]. The exact values are computed in double precision; the
/// tolerance is the lesson's, scaled to the problem (e.g. a few units in the last place of the
/// larger term of a sum).
Mismatches compare_near(const std::vector<double>& exact, const std::vector<double>& tolerance,
                        const std::vector<float>& got, const Unwritten& unwritten);

/// Shape as the grader prints it: "33x31".
std::string shape_name(long long rows, long long cols);

}  // namespace harness
