// Lesson 03's table for the lab's bench: your saxpy (or the solution) under grids from one block
// to one thread per element, each timed against the step's copy rung on the graded grid (4 blocks
// per SM), plus the chunk-per-thread loop of the lesson's section 4 on the graded grid. Your kernel
// is checked once before anything is timed.
#include <fmt/format.h>

#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "grid_stride.cuh"
#include "steps/03_grid_stride.hpp"

namespace {

// The anti-pattern of the lesson's section 4: each thread walks its own contiguous chunk.
__global__ void saxpy_chunked(long long n, float a, const float* __restrict__ x,
                              float* __restrict__ y) {
  const long long threads = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long chunk = (n + threads - 1) / threads;
  const long long end = (t + 1) * chunk < n ? (t + 1) * chunk : n;
  for (long long i = t * chunk; i < end; ++i) y[i] = a * x[i] + y[i];
}

// Runs saxpy once on the graded grid and compares y with the host's a * x + y (a = 2: exact).
std::string check_saxpy(long long n, int blocks, harness::DeviceBuffer<float>& x,
                        harness::DeviceBuffer<float>& y, const std::vector<float>& hx,
                        const std::vector<float>& hy) {
  y.upload(hy);
  harness::check(grid_stride::launch_saxpy(n, 2.0f, x.data(), y.data(), blocks), "launch saxpy");
  harness::wait(0, "saxpy");
  const std::vector<float> got = y.download();
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i] != 2.0f * hx[i] + hy[i] && wrong++ == 0) first = i;
  if (wrong == 0) return "";
  return fmt::format("wrong output, not timed: {} of {} elements of y wrong, the first y[{}]",
                     wrong, got.size(), first);
}

bench::Table grid_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(2, sizeof(float));
  const int sms = ctx.device.sm_count;
  const int graded = grid_stride::BLOCKS_PER_SM * sms;
  harness::DeviceBuffer<float> x(n), y(n);
  const std::vector<float> hx = harness::random_floats(n, 31), hy = harness::random_floats(n, 32);
  x.upload(hx);
  bench::Table t{"grid_stride",
                 fmt::format("SAXPY y = a * x + y, {} floats, 256 threads per block, {} SMs "
                             "(lesson 03, step grid_stride)",
                             course::group_thousands(n), sms),
                 "effective GB/s = (4 B of x + 4 B of y read + 4 B of y written) x n / time",
                 fmt::format("copy_grid_stride on the graded grid ({} blocks = 4 per SM)", graded)};
  const bench::Launch copy = [&](cudaStream_t s) {
    return grid_stride::launch_copy_grid_stride(n, x.data(), y.data(), graded, s);
  };
  if (std::string error = check_saxpy(n, graded, x, y, hx, hy); !error.empty()) {
    bench::Row r;
    r.name = "saxpy (yours)";
    r.error = error;
    t.rows.push_back(r);
    return t;
  }
  struct Grid {
    long long blocks;
    std::string name, note;
  };
  const long long full = grid_stride::full_grid_blocks(n);
  const std::vector<Grid> grids = {
      {1, "1 block", "one SM of " + std::to_string(sms) + ", 8 warps"},
      {sms, "1 per SM", "8 warps per SM"},
      {2ll * sms, "2 per SM", "16 warps per SM"},
      {graded, "4 per SM (graded)", "32 warps per SM"},
      {8ll * sms, "8 per SM", "64 warps per SM"},
      {32ll * sms, "32 per SM", "more blocks than an SM holds at once"},
      {full, "full grid",
       fmt::format("{} blocks, one element per thread",
                   course::group_thousands(static_cast<double>(full)))}};
  for (const Grid& g : grids) {
    const bench::Launch yours = [&, b = static_cast<int>(g.blocks)](cudaStream_t s) {
      return grid_stride::launch_saxpy(n, 2.0f, x.data(), y.data(), b, s);
    };
    t.rows.push_back(bench::measure(ctx, "saxpy, " + g.name, copy, yours, 12.0 * n, g.note));
  }
  const bench::Launch chunked = [&](cudaStream_t s) {
    saxpy_chunked<<<graded, grid_stride::BLOCK_THREADS, 0, s>>>(n, 2.0f, x.data(), y.data());
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure(ctx, "chunk per thread, 4 per SM", copy, chunked, 12.0 * n,
                                  "lanes a chunk apart: 32 sectors per request"));
  return t;
}

}  // namespace

BENCH_TABLE(grid_stride::kLessonId, "grid_stride", grid_table);
