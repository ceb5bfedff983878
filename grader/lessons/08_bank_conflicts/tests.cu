// Hidden tests of lesson 08_bank_conflicts. Every step computes the same tile product
// (bank_conflicts.cuh), in float or in double, so every step gets the same cases:
// "<step>/Correct.<rows>x<cols>" (exact result, bit for bit) and "<step>/Speed.timed" (against the
// rung of its element type: the same kernel with the B tile read along rows, on a square timing
// matrix). The data (host_reference.hpp) makes every tile product exact in its element type, and
// the double step's data one that float cannot compute exactly: accumulating in float fails.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "bank_conflicts.cuh"
#include "bank_conflicts_steps.hpp"
#include "harness/lesson.hpp"
#include "harness/record.hpp"
#include "host_reference.hpp"
#include "steps/08_bank_conflicts.hpp"

namespace {

using bank_conflicts::host_tile_product;
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

// The device reference (harness::Reference): element (r, c) of the tile product from the draws of
// A and B, as host_tile_product computes it. The data makes every product and partial sum exact
// in T, so the order of the additions (and any contraction into a fused multiply-add) cannot
// change a bit.
template <typename T>
struct TileProductOfDraws {
  std::uint64_t a_seed, b_seed;
  std::size_t rows, cols;
  __device__ T operator()(std::size_t e) const {
    const bank_conflicts::TestData<T> draw;
    const std::size_t r = e / cols, c = e % cols;
    const std::size_t r0 = r / TILE_DIM * TILE_DIM, c0 = c / TILE_DIM * TILE_DIM;
    const std::size_t j = c - c0;  // C_tile[i][j] = sum_k A_tile[i][k] * B_tile[j][k]
    T sum = 0;
    if (r0 + j >= rows) return sum;  // B's row r0 + j is outside the matrix: zeros
    for (std::size_t k = 0; k < TILE_DIM && c0 + k < cols; ++k)
      sum += static_cast<T>(draw(a_seed, r * cols + c0 + k)) *
             static_cast<T>(draw(b_seed, (r0 + j) * cols + c0 + k));
    return sum;
  }
};

template <typename T>
void tile_product_case(harness::Case& c, Step step, const Shape& s, Launcher<T> student,
                       Launcher<T> rung) {
  c.describe(
      std::string("tile_product_") + bank_conflicts::step_name(step),
      fmt::format("{}x{} (rows x cols{})", s.rows, s.cols, sizeof(T) == 8 ? ", double" : ""));
  const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
  const auto a = c.input<T>("a", n, bank_conflicts::TestData<T>{});
  const auto b = c.input<T>("b", n, bank_conflicts::TestData<T>{});
  const auto out = c.output<T>("c", n);
  c.launch(student, a, b, out, s.rows, s.cols);
  c.ceiling(rung, a, b, out, s.rows, s.cols);
  c.bytes(3.0 * n * sizeof(T));  // DRAM bytes: read A and B, write C (the rung moves the same)
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  c.expect_exact(
      out,
      harness::reference([&] { return host_tile_product(a.host(), b.host(), s.rows, s.cols); },
                         TileProductOfDraws<T>{a.seed(), b.seed(), rows, cols}),
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
    tile_product_case<float>(c, step, s, bank_conflicts::float_step_launcher(step),
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
