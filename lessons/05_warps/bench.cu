// Lesson 05's tables for the lab's bench: divergence (your uniform_branch and the lane-parity
// kernel against the rung with no divergence) and the whole-array sum (your array_sum and a
// ladder of course kernels against cub::DeviceReduce::Sum). Every kernel is checked once before it
// is timed; kernel names let `ncu --kernel-name regex:...` select a table's kernels.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "host_reference.hpp"
#include "steps/05_warps.hpp"
#include "warps.cuh"

namespace {

using warps::BLOCK_THREADS;
using warps::WARP_SIZE;

// ============================== divergence ==============================

// The stub's kernel: thread i on element i, the chain chosen by i's parity, so by the lane.
__global__ void lane_parity_branch(const float* __restrict__ x, float* __restrict__ out, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i % 2 == 1) ? warps::odd_work(x[i]) : warps::even_work(x[i]);
}

bench::Table divergence_table(const bench::Context& ctx) {
  const int n = static_cast<int>(harness::timing_elements(2, sizeof(float)));
  harness::DeviceBuffer<float> x(n), out(n);
  // Values from a pool of 4096, so the host evaluates each chain 4096 times only.
  const warps::BranchData data = warps::branch_data(static_cast<std::size_t>(n), 51);
  const std::vector<float>& ref = data.expected;
  x.upload(data.x);
  bench::Table t{
      "divergence",
      fmt::format("out[i] = (i odd ? odd_work : even_work)(x[i]), two chains of {} dependent "
                  "instructions, {} floats, 256 threads per block (lesson 05, step "
                  "uniform_branch)",
                  warps::CHAIN_LENGTH, course::group_thousands(n)),
      "GB/s = (4 B read + 4 B written) x n / time: a rate to compare rows, the time is arithmetic",
      "branch_rung: the same chains and geometry, the chain chosen per warp (no divergence)"};
  const bench::Launch rung = [&](cudaStream_t s) {
    return warps::launch_branch_rung(x.data(), out.data(), n, s);
  };
  t.rows.push_back(
      bench::measure(ctx, "branch_rung (ceiling)", rung, rung, 8.0 * n, "every warp on one chain"));
  const bench::Launch yours = [&](cudaStream_t s) {
    return warps::launch_uniform_branch(x.data(), out.data(), n, s);
  };
  const auto where = [](std::size_t i) { return fmt::format("out[{}]", i); };
  t.rows.push_back(bench::measure_checked(ctx, "uniform_branch (yours)", rung, yours, 8.0 * n,
                                          "warps 0-3 even, 4-7 odd", out, ref, where));
  const bench::Launch parity = [&](cudaStream_t s) {
    lane_parity_branch<<<(n + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS, 0, s>>>(
        x.data(), out.data(), n);
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure_checked(ctx, "lane_parity_branch", rung, parity, 8.0 * n,
                                          "every warp runs both chains", out, ref, where));
  return t;
}

// ============================== the array sum ==============================

__device__ float bench_warp_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ void bench_block_atomic(float acc, float* out) {
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  acc = bench_warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    const float v = bench_warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, v);
  }
}

// The solution's kernel, for grids other than the launcher's.
__global__ void sum_shuffle(const float* __restrict__ x, float* out, long long n) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  bench_block_atomic(acc, out);
}

// Lesson 09's step ahead: 16 bytes per load (x from cudaMalloc is 16-byte aligned), the n % 4
// tail by the first threads.
__global__ void sum_shuffle_float4(const float* __restrict__ x, float* out, long long n) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long quads = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float acc = 0.0f;
  for (long long i = t; i < quads; i += stride) {
    const float4 v = x4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  if (t < n - 4 * quads) acc += x[4 * quads + t];
  bench_block_atomic(acc, out);
}

// The wrong kernel shared_tree_no_shuffles: a shared-memory tree per 256-element tile.
__global__ void sum_tile_tree(const float* __restrict__ x, float* out, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < n; base += stride) {
    const long long i = base + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (static_cast<int>(threadIdx.x) < half) tile[threadIdx.x] += tile[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) acc += tile[0];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, acc);
}

// No block combination: every thread adds its register sum to *out.
__global__ void sum_atomic_per_thread(const float* __restrict__ x, float* out, long long n) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  atomicAdd(out, acc);
}

using SumKernel = void (*)(const float*, float*, long long);

// Runs `launch` once and compares *out with `exact`; "" when right.
std::string check_sum(const bench::Launch& launch, harness::DeviceBuffer<float>& out, float exact,
                      const std::string& name) {
  harness::check(launch(0), "launch " + name);
  harness::wait(0, name);
  const float got = out.download()[0];
  if (got == exact) return "";
  return fmt::format("wrong output, not timed: *out = {}, the sum is {}", harness::show(got),
                     harness::show(exact));
}

bench::Table sum_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(1, sizeof(float));
  const int sms = ctx.device.sm_count;
  harness::DeviceBuffer<float> x(n), out(1);
  // Nonzero integers in [-8, 8]: the sum is exact in any order of additions that does not depend
  // on the values (see grader/lessons/05_warps/tests.cu), so every row is checked exactly.
  const std::vector<float> hx = warps::nonzero_integers(static_cast<std::size_t>(n), 52);
  double exact = 0;
  for (float v : hx) exact += v;
  x.upload(hx);
  bench::Table t{"array_sum",
                 fmt::format("sum of {} floats, 256 threads per block, {} SMs (lesson 05, step "
                             "array_sum)",
                             course::group_thousands(static_cast<double>(n)), sms),
                 "effective GB/s = 4 B x n / time (each float read once)",
                 "cub::DeviceReduce::Sum on the same input, temporary storage allocated once"};
  const bench::Launch cub = [&](cudaStream_t s) {
    return warps::launch_cub_sum(x.data(), out.data(), n, s);
  };
  const auto add_row = [&](const std::string& name, const bench::Launch& launch,
                           const std::string& note) {
    if (std::string error = check_sum(launch, out, static_cast<float>(exact), name);
        !error.empty()) {
      bench::Row r;
      r.name = name;
      r.error = error;
      t.rows.push_back(r);
      return;
    }
    t.rows.push_back(bench::measure(ctx, name, cub, launch, 4.0 * n, note, /*launched=*/true));
  };
  add_row("cub::DeviceReduce::Sum (ceiling)", cub, "");
  int graded = 0;
  harness::check(warps::array_sum_blocks(n, &graded), "array_sum_blocks");
  add_row(
      "array_sum (yours)",
      [&](cudaStream_t s) { return warps::launch_array_sum(x.data(), out.data(), n, s); },
      fmt::format("{} blocks ({} per SM), memset of *out included", graded,
                  warps::SUM_BLOCKS_PER_SM));
  const auto course_row = [&](const std::string& name, SumKernel kernel, int per_sm,
                              const std::string& note) {
    add_row(
        name,
        [&, kernel, per_sm](cudaStream_t s) {
          if (cudaError_t err = cudaMemsetAsync(out.data(), 0, sizeof(float), s);
              err != cudaSuccess)
            return err;
          kernel<<<per_sm * sms, BLOCK_THREADS, 0, s>>>(x.data(), out.data(), n);
          return cudaGetLastError();
        },
        note);
  };
  for (int per_sm : {1, 2, 4, 8, 16})
    course_row(fmt::format("shuffles, {} per SM", per_sm), sum_shuffle, per_sm,
               fmt::format("{} warps per SM", per_sm * BLOCK_THREADS / WARP_SIZE));
  course_row("shuffles + float4 loads, 8 per SM", sum_shuffle_float4, 8,
             "16 bytes per load (lesson 09)");
  course_row("shared tree per tile, 8 per SM", sum_tile_tree, 8,
             "8 barriers per 256 elements (shared_tree_no_shuffles)");
  course_row("atomicAdd per thread, 8 per SM", sum_atomic_per_thread, 8,
             "no block combination: 256 atomics per block");
  return t;
}

}  // namespace

BENCH_TABLE(warps::kLessonId, "divergence", divergence_table);
BENCH_TABLE(warps::kLessonId, "array_sum", sum_table);
