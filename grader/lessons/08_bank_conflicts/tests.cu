// Hidden tests of lesson 08_bank_conflicts. Every step computes the same tile product
// (bank_conflicts.cuh), in float or in double, so every step gets the same cases:
// "<step>/Correct.<rows>x<cols>" (exact result, bit for bit) and "<step>/Speed.timed" (against the
// rung of its element type: the same kernel with the B tile read along rows, on a square timing
// matrix).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bank_conflicts.cuh"
#include "harness/lesson.hpp"
#include "harness/record.hpp"
#include "steps/08_bank_conflicts.hpp"

namespace {

using bank_conflicts::Step;
using bank_conflicts::TILE_DIM;

struct Shape {
  int rows, cols;
};

// 1x1; one row and one column; one short of and one past a tile both ways; primes; non-square
// both ways (so a B row past `rows` meets a C column inside `cols`); multi-block grids.
const std::vector<Shape> kShapes = {{1, 1},     {1, 97},    {97, 1},    {31, 33},    {33, 31},
                                    {32, 32},   {64, 96},   {63, 65},   {97, 61},    {61, 97},
                                    {33, 1000}, {1000, 33}, {257, 255}, {1023, 1025}};

std::string shape_name(const Shape& s) {
  return harness::shape_name(s.rows, s.cols);
}

// Square, a multiple of 32: three matrices of the step's element type at least 4x the L2.
Shape timing_shape(std::size_t element_bytes) {
  const int side = static_cast<int>(harness::timing_side(3, element_bytes));
  return {side, side};
}

bool is_double(Step step) {
  return step == Step::padded_64;
}

template <typename T>
using Launcher = cudaError_t (*)(const T*, const T*, T*, int, int, cudaStream_t);

Launcher<float> float_launcher(Step step) {
  switch (step) {
    case Step::conflicted:
      return bank_conflicts::launch_tile_product_conflicted;
    case Step::padded:
      return bank_conflicts::launch_tile_product_padded;
    case Step::swizzled:
      return bank_conflicts::launch_tile_product_swizzled;
    default:
      return nullptr;
  }
}

// Whole numbers in [-16, 16] (0 and -1 included), from the case's seed and the input's number:
// |product| <= 256 and |sum of 32| <= 8192, exact in float and double in any order of addition.
template <typename T>
std::vector<T> small_whole_numbers(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  harness::parallel_for(n, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      v[i] = static_cast<T>(
          static_cast<int>(harness::mix(seed ^ (i * 0x9E3779B97F4A7C15ull)) % 33) - 16);
  });
  return v;
}

// Host reference: the definition in bank_conflicts.cuh, tile by tile (zeros outside the matrix),
// bands of tile rows on all cores (each band writes its own output rows).
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

template <typename T>
void tile_product_case(harness::Case& c, Step step, const Shape& s, Launcher<T> student,
                       Launcher<T> rung) {
  c.describe(
      std::string("tile_product_") + bank_conflicts::step_name(step),
      fmt::format("{}x{} (rows x cols{})", s.rows, s.cols, sizeof(T) == 8 ? ", double" : ""));
  const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
  if (harness::quick() && n > (1u << 16)) harness::skip_in_quick_mode("large shape skipped");
  const auto a = c.input<T>("a", small_whole_numbers<T>(n, harness::mix(c.seed() + 1)));
  const auto b = c.input<T>("b", small_whole_numbers<T>(n, harness::mix(c.seed() + 2)));
  const auto out = c.output<T>("c", n);
  c.launch(student, a, b, out, s.rows, s.cols);
  c.ceiling(rung, a, b, out, s.rows, s.cols);
  c.bytes(3.0 * n * sizeof(T));  // DRAM bytes: read A and B, write C (the rung moves the same)
  c.expect_exact(out, host_tile_product(a.host(), b.host(), s.rows, s.cols),
                 harness::row_major(s.cols));
}

// The swizzled step keeps both tiles float[32][32], 8 KiB of static shared memory: a padded B tile
// is as fast (it is the padded step's answer) and would pass the gate, so it is refused here by
// the kernel's own shared-memory size, read from the runtime.
void expect_unpadded_tiles(harness::Case& c) {
  cudaFuncAttributes attr{};
  harness::check(cudaFuncGetAttributes(&attr, bank_conflicts::tile_product_swizzled),
                 "cudaFuncGetAttributes(tile_product_swizzled)");
  const std::size_t unpadded = 2 * TILE_DIM * TILE_DIM * sizeof(float);
  if (attr.sharedSizeBytes > unpadded)
    c.fail(fmt::format(
        "tile_product_swizzled uses {} bytes of shared memory, more than the two unpadded "
        "float[32][32] tiles ({} bytes): this step keeps the tiles unpadded and moves each "
        "element of B's row r to column k ^ r instead (README section 5)",
        attr.sharedSizeBytes, unpadded));
}

void run_case(harness::Case& c, Step step, const Shape& s) {
  if (step == Step::swizzled) expect_unpadded_tiles(c);
  if (is_double(step))
    tile_product_case<double>(c, step, s, bank_conflicts::launch_tile_product_padded_64,
                              bank_conflicts::launch_tile_product_rows_64);
  else
    tile_product_case<float>(c, step, s, float_launcher(step),
                             bank_conflicts::launch_tile_product_rows);
}

}  // namespace

COURSE_TESTS {
  for (Step step : bank_conflicts::kSteps) {
    const auto body = [step](harness::Case& c, const Shape& s) { run_case(c, step, s); };
    harness::correctness(step, kShapes, shape_name, body);
    harness::speed(
        step, [step] { return timing_shape(is_double(step) ? sizeof(double) : sizeof(float)); },
        body);
  }
}
