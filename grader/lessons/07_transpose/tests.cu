// Hidden tests of lesson 07_transpose. Every step is a transpose, so every step gets the same
// cases: "<step>/Correct.<rows>x<cols>" (exact result, bit for bit) and "<step>/Speed.timed"
// (against copy_tiled, the copy rung, on a square timing matrix).
#include <algorithm>
#include <vector>

#include "harness/lesson.hpp"
#include "steps/07_transpose.hpp"
#include "transpose.cuh"
#include "transpose_steps.hpp"

namespace {

using transpose::Step;

struct Shape {
  int rows, cols;
};

// 1x1; one row and one column; one short of and one past a tile; primes; non-square both ways;
// widths that are not a multiple of 4; multi-block grids, including a 1-D grid of 3126 blocks.
const std::vector<Shape> kShapes = {{1, 1},       {1, 777},     {777, 1},    {31, 33},   {33, 31},
                                    {32, 32},     {64, 96},     {63, 65},    {97, 61},   {61, 97},
                                    {1023, 1025}, {2048, 1536}, {1, 100003}, {100003, 1}};

std::string shape_name(const Shape& s) {
  return harness::shape_name(s.rows, s.cols);
}

// Square, rows a multiple of 32 floats (rows of the output are whole sectors, as the gates assume).
Shape timing_shape() {
  const int side = static_cast<int>(harness::timing_side(2, sizeof(float)));
  return {side, side};
}

// The kernel of each step that turns tiles (every step but naive), read for its shared memory.
const void* tile_kernel(Step step) {
  switch (step) {
    case Step::tiled:
      return reinterpret_cast<const void*>(transpose::transpose_tiled);
    case Step::tiled_padded:
      return reinterpret_cast<const void*>(transpose::transpose_tiled_padded);
    case Step::tiled_cp_async:
      return reinterpret_cast<const void*>(transpose::transpose_tiled_cp_async);
    case Step::padded_32x32:
      return reinterpret_cast<const void*>(transpose::transpose_padded_32x32);
    default:
      return nullptr;
  }
}

// The tile steps turn each tile in shared memory. Time cannot ask for it on every GPU: on our
// H200 a kernel without shared memory that writes coalesced and reads down input columns through
// L1 ran at 53% of the copy rung, faster than the unpadded tile (45%; calibration.md). So the
// kernel's static shared memory, read from the runtime, must hold at least one 32 x 32 float tile
// (the launchers pass no dynamic shared memory).
void expect_shared_tile(harness::Case& c, Step step) {
  const void* kernel = tile_kernel(step);
  if (kernel == nullptr) return;
  cudaFuncAttributes attr{};
  harness::check(cudaFuncGetAttributes(&attr, kernel), "cudaFuncGetAttributes");
  const std::size_t tile = transpose::TILE_DIM * transpose::TILE_DIM * sizeof(float);
  if (attr.sharedSizeBytes < tile)
    c.fail(fmt::format(
        "transpose_{} uses no shared-memory tile: it declares {} bytes of shared memory, less than "
        "one {} x {} float tile ({} bytes). This step reads a tile with coalesced loads, turns it "
        "in shared memory and writes it with coalesced stores (README section 3)",
        transpose::step_name(step), attr.sharedSizeBytes, transpose::TILE_DIM, transpose::TILE_DIM,
        tile));
}

void transpose_case(harness::Case& c, Step step, const Shape& s) {
  expect_shared_tile(c, step);
  c.describe(std::string("transpose_") + transpose::step_name(step),
             fmt::format("{}x{} (rows x cols; out is {}x{})", s.rows, s.cols, s.cols, s.rows));
  const size_t n = static_cast<size_t>(s.rows) * s.cols;
  const auto in = c.input<float>("in", n);
  const auto out = c.output<float>("out", n);
  c.launch(transpose::step_launcher(step), in, out, s.rows, s.cols);
  c.ceiling(transpose::launch_copy_tiled, in, out, s.rows, s.cols);
  c.bytes(2.0 * n * sizeof(float));
  const auto rows = static_cast<std::size_t>(s.rows), cols = static_cast<std::size_t>(s.cols);
  c.expect_exact(
      out,
      harness::reference([&] { return harness::host_transpose(in.host(), s.rows, s.cols); },
                         harness::TransposeOfDraw<float>{in.seed(), rows, cols}),
      harness::row_major(s.rows));
}

}  // namespace

COURSE_TESTS {
  for (Step step : transpose::kSteps) {
    const auto body = [step](harness::Case& c, const Shape& s) { transpose_case(c, step, s); };
    harness::correctness(step, kShapes, shape_name, body);
    harness::speed(step, timing_shape, body);
  }
}
