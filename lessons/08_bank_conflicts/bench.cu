// Lesson 08's table for the lab's bench: bank patterns. The tile product of the lesson with your
// kernels (or the solutions), each checked before it is timed, against the rung of its element
// type; two course-owned double kernels show the 64-bit paddings that do not work. Kernel names
// let `ncu --kernel-name regex:tile_product` select the table alone.
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bank_conflicts.cuh"
#include "bank_conflicts_steps.hpp"
#include "bench.hpp"
#include "host_reference.hpp"
#include "steps/08_bank_conflicts.hpp"

namespace {

using bank_conflicts::TILE_DIM;

// Course-owned 64-bit variants for the table: the unpadded double tile (every lane of a half-warp
// on the same two banks), the tile padded by two doubles (lanes 8 apart collide: 2-way) and by
// four (lanes 4 apart: 4-way), to see which conflicts this kernel can hide.
template <int PAD>
__global__ void tile_product_double_pad(const double* __restrict__ a, const double* __restrict__ b,
                                        double* __restrict__ c, int rows, int cols) {
  __shared__ double as[TILE_DIM][TILE_DIM];
  __shared__ double bs[TILE_DIM][TILE_DIM + PAD];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0;
  bs[y][x] = inside ? b[row * cols + col] : 0.0;
  __syncthreads();
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}

template <int PAD>
cudaError_t launch_double_pad(const double* a, const double* b, double* c, int rows, int cols,
                              cudaStream_t stream) {
  const dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
  tile_product_double_pad<PAD>
      <<<grid, dim3(TILE_DIM, bank_conflicts::BLOCK_ROWS), 0, stream>>>(a, b, c, rows, cols);
  return cudaGetLastError();
}

bench::Table banks_table(const bench::Context& ctx) {
  const int side = 8192;
  const std::size_t n = static_cast<std::size_t>(side) * side;
  const std::vector<double> ha = bank_conflicts::test_data<double>(n, 8),
                            hb = bank_conflicts::test_data<double>(n, 9);
  const std::vector<double> ref64 = bank_conflicts::host_tile_product(ha, hb, side, side);
  const std::vector<float> fa(ha.begin(), ha.end()), fb(hb.begin(), hb.end()),
      ref32(ref64.begin(), ref64.end());
  bench::Table t{
      "banks",
      "bank patterns: the tile product C_tile = A_tile * B_tile^T, 8192x8192, 32x32 threads, the B "
      "tile read down a column",
      "GB/s = 3 matrices x 8192 x 8192 x 4 B (float) or 8 B (double) / kernel time: DRAM traffic; "
      "the kernels are bound by shared memory, so read the % column",
      "tile_product_rows (float rows) and tile_product_rows_64 (double rows): the same kernel "
      "with the B tile read along a row (the rung)"};
  const auto where = [side](std::size_t i) { return fmt::format("c[{}][{}]", i / side, i % side); };
  {
    harness::DeviceBuffer<float> a(n), b(n), c(n);
    a.upload(fa);
    b.upload(fb);
    const bench::Launch rung = [&](cudaStream_t s) {
      return bank_conflicts::launch_tile_product_rows(a.data(), b.data(), c.data(), side, side, s);
    };
    const double bytes = 3.0 * n * sizeof(float);
    t.rows.push_back(bench::measure(ctx, "tile_product_rows (float rung)", rung, rung, bytes,
                                    "B read along a row: 1 wavefront per load"));
    // The float steps, with the launchers their tests grade; a row is named after the step's
    // kernel, tile_product_<step>.
    using bank_conflicts::Step;
    const struct {
      Step step;
      const char* note;
    } ladder[] = {{Step::conflicted, "float[32][32]: 32-way, 32 wavefronts per B load"},
                  {Step::padded, "float[32][33]: bank (x + k) % 32, 1 wavefront"},
                  {Step::swizzled, "float[32][32], column k ^ r: 1 wavefront"}};
    for (const auto& k : ladder) {
      const bank_conflicts::FloatStepLauncher launch = bank_conflicts::float_step_launcher(k.step);
      const bench::Launch run = [&](cudaStream_t s) {
        return launch(a.data(), b.data(), c.data(), side, side, s);
      };
      t.rows.push_back(bench::measure_checked(
          ctx, std::string("tile_product_") + bank_conflicts::step_name(k.step), rung, run, bytes,
          k.note, c, ref32, where));
    }
  }
  {
    harness::DeviceBuffer<double> a(n), b(n), c(n);
    a.upload(ha);
    b.upload(hb);
    const bench::Launch rung = [&](cudaStream_t s) {
      return bank_conflicts::launch_tile_product_rows_64(a.data(), b.data(), c.data(), side, side,
                                                         s);
    };
    const double bytes = 3.0 * n * sizeof(double);
    t.rows.push_back(bench::measure(ctx, "tile_product_rows_64 (double rung)", rung, rung, bytes,
                                    "B read along a row: 2 wavefronts per load"));
    using Launcher = cudaError_t (*)(const double*, const double*, double*, int, int, cudaStream_t);
    const struct {
      const char* name;
      Launcher launch;
      const char* note;
    } ladder[] = {{"double [32][32] (course)", launch_double_pad<0>,
                   "bank 2k for every lane: 32 wavefronts per B load"},
                  {"double [32][34] (course)", launch_double_pad<2>,
                   "model: 2-way; measured conflict-free (16-byte loads)"},
                  {"double [32][36] (course)", launch_double_pad<4>,
                   "model: 4-way; measured ~2 extra wavefronts per load"},
                  {"tile_product_padded_64", bank_conflicts::launch_tile_product_padded_64,
                   "double[32][33]: bank (2x + 2k) % 32, 2 wavefronts"}};
    for (const auto& k : ladder) {
      const bench::Launch run = [&](cudaStream_t s) {
        return k.launch(a.data(), b.data(), c.data(), side, side, s);
      };
      t.rows.push_back(
          bench::measure_checked(ctx, k.name, rung, run, bytes, k.note, c, ref64, where));
    }
  }
  return t;
}

}  // namespace

BENCH_TABLE(bank_conflicts::kLessonId, "banks", banks_table);
