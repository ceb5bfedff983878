/// @file host_reference.hpp
/// Lesson 08's host side, shared by its hidden tests (grader/lessons/08_bank_conflicts/tests.cu)
/// and its bench table (bench.cu): the test data and the tile product computed on the CPU.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "bank_conflicts.cuh"
#include "harness/data.hpp"
#include "harness/draw.hpp"

namespace bank_conflicts {

/// The float steps' data (a draw, harness/draw.hpp): whole numbers in [-16, 16] (0 and -1
/// included), element i from (seed, i) only: |product| <= 256 and |sum of 32| <= 8192, so every
/// tile product is exact in float, whatever the order of the additions.
struct SmallWholeNumbers {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    return static_cast<float>(static_cast<int>(harness::element_hash(seed, i) % 33) - 16);
  }
};

/// The double step's data (a draw): k * 2^-30 for a whole k in [-2^20, 2^20] (0 included).
/// A product is a whole multiple of 2^-60 of magnitude at most 2^40 * 2^-60, and a sum of 32 of
/// them at most 2^45 * 2^-60: every partial sum, in any order, is a multiple of 2^-60 that needs
/// at most 46 significant bits, so double (53 bits) computes the tile product exactly. A float
/// (24 bits) cannot hold most products: a kernel that accumulates in float gets most elements
/// wrong, and the exact comparison shows it.
struct WideFractions {
  /// Element `i` of the values drawn from `seed`.
  HARNESS_HD double operator()(std::uint64_t seed, std::size_t i) const {
    const long long k =
        static_cast<long long>(harness::element_hash(seed, i) % ((1ull << 21) + 1)) - (1 << 20);
    return static_cast<double>(k) * 0x1.0p-30;
  }
};

/// The draw of each element type: SmallWholeNumbers for float, WideFractions for double.
template <typename T>
using TestData = std::conditional_t<sizeof(T) == 8, WideFractions, SmallWholeNumbers>;

/// `n` values of TestData<T> from `seed`, on the host (the bench's data).
template <typename T>
std::vector<T> test_data(std::size_t n, std::uint64_t seed) {
  return harness::draw_values<T>(n, seed, TestData<T>{});
}

/// The definition in bank_conflicts.cuh on row-major rows x cols matrices a and b: for each
/// TILE_DIM x TILE_DIM tile position, C_tile = A_tile * B_tile^T, with zeros outside the matrix.
/// Bands of tile rows run on all cores (each band writes its own output rows).
template <typename T>
std::vector<T> host_tile_product(const std::vector<T>& a, const std::vector<T>& b, int rows,
                                 int cols) {
  std::vector<T> c(a.size());
  const int tiles_y = (rows + TILE_DIM - 1) / TILE_DIM, tiles_x = (cols + TILE_DIM - 1) / TILE_DIM;
  harness::parallel_for(
      tiles_y,
      [&](std::size_t first, std::size_t last) {
        T at[TILE_DIM][TILE_DIM], bt[TILE_DIM][TILE_DIM];
        for (int ty = static_cast<int>(first); ty < static_cast<int>(last); ++ty)
          for (int tx = 0; tx < tiles_x; ++tx) {
            const int r0 = ty * TILE_DIM, c0 = tx * TILE_DIM;
            for (int i = 0; i < TILE_DIM; ++i)
              for (int k = 0; k < TILE_DIM; ++k) {
                const bool inside = r0 + i < rows && c0 + k < cols;
                const std::size_t g = static_cast<std::size_t>(r0 + i) * cols + c0 + k;
                at[i][k] = inside ? a[g] : T(0);
                bt[i][k] = inside ? b[g] : T(0);
              }
            for (int i = 0; i < TILE_DIM && r0 + i < rows; ++i)
              for (int j = 0; j < TILE_DIM && c0 + j < cols; ++j) {
                T sum = 0;
                for (int k = 0; k < TILE_DIM; ++k) sum += at[i][k] * bt[j][k];
                c[static_cast<std::size_t>(r0 + i) * cols + c0 + j] = sum;
              }
          }
      },
      static_cast<std::size_t>(TILE_DIM) * cols);
  return c;
}

}  // namespace bank_conflicts
