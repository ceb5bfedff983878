// Lesson 10's tables for the lab's bench: Harris's reduction ladder retold for a GPU with warp
// shuffles (each rung against cub::DeviceReduce::Sum in the same run), and the row sums across
// shapes from 2^26 x 1 to 1 x 2^26 (your launch_row_sums and cub::DeviceSegmentedReduce::Sum,
// both against the read rung). Every kernel is checked once before it is timed; kernel names
// (reduce_*, row_sums*) let `ncu --kernel-name regex:reduce_` select a table's kernels.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "host_reference.hpp"
#include "reduction.cuh"
#include "steps/10_reduction.hpp"

namespace {

using reduction::BLOCK_THREADS;
using reduction::WARP_SIZE;

// ============================== the ladder ==============================
// Rungs 1-5: one block of 256 threads per 256 elements (512 from rung 4 on), each block's sum
// written to sums[blockIdx.x], then a second pass over those block sums (1 MiB or less at 2^26
// elements, the last rung's kernel) into *out, included in the time, as Harris's kernels are
// applied again to their own output. Rung 6 keeps a grid-stride loop and needs no second pass.
// The first three rungs differ only in which threads add which shared-memory slots at each
// level of the tree.

// Rungs 1-3: thread t of block b puts element 256 b + t (0 past n) into slot t of the block's
// tile, then the barrier.
__device__ void load_tile(const float* __restrict__ x, long long n, float* tile) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
}

// Rung 1: the interleaved tree of the classic first version. At level s, threads whose index is
// a multiple of 2s add slot tid + s: the active threads are scattered over every warp (divergent
// warps all the way down) and `%` is a slow instruction.
__global__ void reduce_interleaved(const float* __restrict__ x, float* sums, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  const unsigned tid = threadIdx.x;
  load_tile(x, n, tile);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) tile[tid] += tile[tid + s];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = tile[0];
}

// Rung 2: strided indices. Thread t works on slot 2 s t, so the active threads are the first
// ones (whole warps idle, no divergence inside most warps) and no `%`; but the slots a warp
// touches are 2s floats apart: 2-way, 4-way, ... bank conflicts (lesson 08).
__global__ void reduce_strided_index(const float* __restrict__ x, float* sums, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  const unsigned tid = threadIdx.x;
  load_tile(x, n, tile);
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned slot = 2 * s * tid;
    if (slot < blockDim.x) tile[slot] += tile[slot + s];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = tile[0];
}

// Rung 3: sequential addressing. At level s (blockDim / 2 down to 1) thread t < s adds slot
// t + s: consecutive threads, consecutive slots, no bank conflicts. Half of the threads are idle
// from the first level on, and each thread loads one element.
__global__ void reduce_sequential(const float* __restrict__ x, float* sums, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  const unsigned tid = threadIdx.x;
  load_tile(x, n, tile);
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) tile[tid] += tile[tid + s];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = tile[0];
}

// Rung 4: the first add during the load. Each thread loads two elements a block apart and adds
// them before the tree: half the blocks, every thread busy at the first level.
__global__ void reduce_first_add(const float* __restrict__ x, float* sums, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  const unsigned tid = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * (2 * blockDim.x) + tid;
  float v = i < n ? x[i] : 0.0f;
  if (i + blockDim.x < n) v += x[i + blockDim.x];
  tile[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) tile[tid] += tile[tid + s];
    __syncthreads();
  }
  if (tid == 0) sums[blockIdx.x] = tile[0];
}

__device__ float ladder_warp_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The block's sum of v through shuffles, 8 warp sums in shared memory and one barrier, in lane 0
// of warp 0 (the other threads return 0).
__device__ float ladder_block_sum(float v) {
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = ladder_warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  return warp == 0 ? ladder_warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f)
                   : 0.0f;
}

// Rung 5: warp shuffles. The first add during the load, then five shuffles per warp and one
// shared exchange: one barrier per block instead of eight (Harris unrolled the last warp of the
// tree by hand; shuffles do it without shared memory).
__global__ void reduce_shuffles(const float* __restrict__ x, float* sums, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * (2 * blockDim.x) + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  if (i + blockDim.x < n) v += x[i + blockDim.x];
  v = ladder_block_sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = v;
}

// Rung 6: float4 loads in a grid-stride loop (8 blocks per SM): each thread keeps a running sum
// over many elements, 16 bytes per load, and the block's tree and atomic happen once per block,
// not once per 512 elements (Harris's "multiple elements per thread", with lessons 05 and 09).
__global__ void reduce_float4_grid_stride(const float* __restrict__ x, float* out, long long n) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long quads = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float v = 0.0f;
  for (long long k = t; k < quads; k += stride) {
    const float4 q = x4[k];
    v += (q.x + q.y) + (q.z + q.w);
  }
  if (t < n - 4 * quads) v += x[4 * quads + t];
  v = ladder_block_sum(v);
  if (threadIdx.x == 0) atomicAdd(out, v);
}

using SumKernel = void (*)(const float*, float*, long long);

bench::Table ladder_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(1, sizeof(float));
  const int sms = ctx.device.sm_count;
  harness::DeviceBuffer<float> x(n), out(1), partials(reduction::sum_tiles(n)),
      sums((n + BLOCK_THREADS - 1) / BLOCK_THREADS);
  // Nonzero integers in [-8, 8]: the sum is exact in any order of additions that does not depend
  // on the values (host_reference.hpp), so every rung is checked exactly.
  const std::vector<float> hx =
      harness::draw_values<float>(static_cast<std::size_t>(n), 101, reduction::SmallIntegers{});
  double exact = 0;
  for (float v : hx) exact += v;
  x.upload(hx);
  bench::Table t{"harris_ladder",
                 fmt::format("sum of {} floats, 256 threads per block, {} SMs (lesson 10: "
                             "Harris's ladder with shuffles)",
                             course::group_thousands(static_cast<double>(n)), sms),
                 "effective GB/s = 4 B x n / time (each float read once)",
                 "cub::DeviceReduce::Sum on the same input, temporary storage allocated once"};
  const bench::Launch cub = [&](cudaStream_t s) {
    return reduction::launch_cub_sum(x.data(), n, partials.data(), out.data(), 1, s);
  };
  const std::vector<float> expected = {static_cast<float>(exact)};
  const auto where = [](std::size_t) { return std::string("*out"); };
  const auto add_row = [&](const std::string& name, const bench::Launch& launch,
                           const std::string& note) {
    t.rows.push_back(
        bench::measure_checked(ctx, name, cub, launch, 4.0 * n, note, out, expected, where));
  };
  const int grid6 = reduction::BLOCKS_PER_SM * sms;
  const auto rung = [&](const std::string& name, SumKernel kernel, long long blocks,
                        const std::string& note) {
    add_row(
        name,
        [&, kernel, blocks](cudaStream_t s) {
          kernel<<<static_cast<unsigned>(blocks), BLOCK_THREADS, 0, s>>>(x.data(), sums.data(), n);
          if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) return err;
          if (cudaError_t err = cudaMemsetAsync(out.data(), 0, sizeof(float), s);
              err != cudaSuccess)
            return err;
          reduce_float4_grid_stride<<<grid6, BLOCK_THREADS, 0, s>>>(sums.data(), out.data(),
                                                                    blocks);
          return cudaGetLastError();
        },
        note + " (+ a second pass over the block sums)");
  };
  const long long one = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  const long long two = (n + 2 * BLOCK_THREADS - 1) / (2 * BLOCK_THREADS);
  add_row("cub::DeviceReduce::Sum (ceiling)", cub, "");
  rung("1 interleaved tree, %", reduce_interleaved, one,
       "the classic first version: divergent warps at every level, % per thread");
  rung("2 strided indices", reduce_strided_index, one,
       "fixes the divergence and the %: active threads first; slots 2s apart conflict in banks");
  rung("3 sequential addressing", reduce_sequential, one,
       "fixes the bank conflicts: thread t adds t + s; half the threads idle from level 1");
  rung("4 first add during load", reduce_first_add, two,
       "fixes the idle half: two elements per thread, half the blocks");
  rung("5 warp shuffles", reduce_shuffles, two,
       "fixes the barriers: 5 shuffles per warp and one barrier per block instead of 8 levels");
  add_row(
      "6 float4 + grid-stride loop",
      [&](cudaStream_t s) {
        if (cudaError_t err = cudaMemsetAsync(out.data(), 0, sizeof(float), s); err != cudaSuccess)
          return err;
        reduce_float4_grid_stride<<<grid6, BLOCK_THREADS, 0, s>>>(x.data(), out.data(), n);
        return cudaGetLastError();
      },
      "fixes the per-block overhead: a running sum over many 16-byte loads per thread, 8 blocks "
      "per SM, one atomicAdd per block");
  int blocks = 0;
  harness::check(reduction::default_blocks(n, &blocks), "default_blocks");
  add_row(
      "deterministic_sum (yours)",
      [&](cudaStream_t s) {
        return reduction::launch_deterministic_sum(x.data(), n, partials.data(), out.data(), blocks,
                                                   s);
      },
      "fixed tiles of 16,384, float4 loads, the last block sums the tile sums (one kernel, no "
      "float atomics): the same bits on every run and grid");
  return t;
}

// ============================== row sums across shapes ==============================

bench::Table row_sums_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(1, sizeof(float));
  harness::DeviceBuffer<float> x(n);
  const std::vector<float> hx =
      harness::draw_values<float>(static_cast<std::size_t>(n), 102, reduction::SmallIntegers{});
  x.upload(hx);
  bench::Table t{"row_sums",
                 fmt::format("row sums of {} floats as rows x cols, from one column to one row "
                             "(lesson 10, steps narrow_rows and wide_rows)",
                             course::group_thousands(static_cast<double>(n))),
                 "effective GB/s = 4 B x (rows x cols + rows) / time",
                 "row_sums_rung: the matrix read once as a flat array (float4, grid-stride), "
                 "every out[r] written once"};
  for (long long cols : {1LL, 16LL, 256LL, 1024LL, 8192LL, 1LL << 20, n}) {
    const long long rows = n / cols;
    harness::DeviceBuffer<float> out(rows);
    const double bytes = 4.0 * static_cast<double>(rows * cols + rows);
    const std::vector<double> sums = reduction::host_row_sums(hx, rows, cols);
    const std::vector<float> expected(sums.begin(), sums.end());
    const bench::Launch rung = [&, rows, cols](cudaStream_t s) {
      return reduction::launch_row_sums_rung(x.data(), out.data(), rows, cols, s);
    };
    const auto where = [](std::size_t r) { return fmt::format("out[{}]", r); };
    const std::string shape = fmt::format("{} x {}", rows, cols);
    int parts = 0;
    if (cols > reduction::NARROW_MAX_COLS)
      harness::check(reduction::row_parts(rows, cols, &parts), "row_parts");
    const std::string how = cols <= reduction::NARROW_MAX_COLS
                                ? fmt::format("{} lanes per row", reduction::row_team_lanes(cols))
                                : fmt::format("{} blocks per row", parts);
    t.rows.push_back(bench::measure_checked(
        ctx, shape + " launch_row_sums (yours)", rung,
        [&, rows, cols](cudaStream_t s) {
          return reduction::launch_row_sums(x.data(), out.data(), rows, cols, s);
        },
        bytes, how, out, expected, where));
    t.rows.push_back(bench::measure_checked(
        ctx, shape + " cub::DeviceSegmentedReduce::Sum", rung,
        [&, rows, cols](cudaStream_t s) {
          return reduction::launch_cub_row_sums(x.data(), out.data(), rows, cols, s);
        },
        bytes, "one block per row", out, expected, where));
  }
  return t;
}

}  // namespace

BENCH_TABLE(reduction::kLessonId, "harris_ladder", ladder_table);
BENCH_TABLE(reduction::kLessonId, "row_sums", row_sums_table);
