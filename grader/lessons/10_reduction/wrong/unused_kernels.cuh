// Wrong-kernel submissions are graded only on the step the manifest names; the kernels of the
// other steps are empty here (they are never graded in that variant), and the helpers are the
// solution's.
#pragma once
#include "reduction.cuh"

namespace reduction {
namespace wrong_helpers {

// The row and the columns [begin, end) of this block's part in row_sums_wide (block b: row
// b / parts, part b % parts), as the solution splits a row.
struct WidePart {
  long long row, begin, end;
};
__device__ inline WidePart wide_part(long long cols, int parts) {
  const int part = static_cast<int>(blockIdx.x % parts);
  return {blockIdx.x / parts, row_part_begin(cols, parts, part),
          row_part_begin(cols, parts, part + 1)};
}

// The sum of v over the warp's 32 lanes, in lane 0; every lane must call it.
__device__ inline float warp_sum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// The sum of v over the block, in thread 0; every thread must call it.
__device__ inline float block_sum(float v) {
  __shared__ float warp_sums[WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0)
    v = warp_sum(lane < static_cast<int>(blockDim.x / WARP_SIZE) ? warp_sums[lane] : 0.0f);
  return v;
}

// The solution's pass 1 of the deterministic sum: block b sums tiles b, b + gridDim.x, ... of
// SUM_TILE floats (thread j: float4 number j, j + 256, ... of a whole tile, elements j, j + 256,
// ... of the partial last one; the block's tree), thread 0 writes partials[t].
__device__ inline void fixed_tile_sums(const float* __restrict__ x, long long n,
                                       float* __restrict__ partials) {
  for (long long t = blockIdx.x; t < sum_tiles(n); t += gridDim.x) {
    const long long base = t * SUM_TILE;
    float v = 0.0f;
    if (base + SUM_TILE <= n) {
      const float4* q = reinterpret_cast<const float4*>(x + base) + threadIdx.x;
#pragma unroll 4
      for (int k = 0; k < SUM_QUADS_PER_THREAD; ++k) {
        const float4 f = q[k * BLOCK_THREADS];
        v += (f.x + f.y) + (f.z + f.w);
      }
    } else {
      for (long long i = base + threadIdx.x; i < n; i += BLOCK_THREADS) v += x[i];
    }
    v = block_sum(v);
    if (threadIdx.x == 0) partials[t] = v;
    __syncthreads();
  }
}

// The solution's pass 2, a thread's share: partials j, j + blockDim.x, ... from L2, in that order.
__device__ inline float partials_share(long long n, const float* partials) {
  float v = 0.0f;
  for (long long t = threadIdx.x; t < sum_tiles(n); t += blockDim.x) v += __ldcg(&partials[t]);
  return v;
}

// The solution's ticket: true in every thread of the block that finishes last. Thread 0 fences
// (the block's writes before its ticket), takes the ticket, and the last block fences again.
__device__ inline bool last_block(unsigned int* blocks_done) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    if (last) __threadfence();
  }
  __syncthreads();
  return last;
}

// A thread's best element of its grid-stride share, the loop of the solution: replaced when
// x[i] > value (or >= with `last_wins`); starting from `value` with index -1 ("no element yet"
// when value is -INFINITY).
__device__ inline void thread_best(const float* __restrict__ x, long long n, float& value,
                                   long long& index, bool last_wins = false) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const bool first = index < 0 && value == -INFINITY;
    if (first || x[i] > value || (last_wins && x[i] == value)) {
      value = x[i];
      index = i;
    }
  }
}

// Keeps the better of two (value, index) pairs: the larger value; on equal values the lower
// index, or the higher one with `last_wins` (a wrong kernel's rule). Index -1: no element.
__device__ inline void keep_better(float& value, long long& index, float other_value,
                                   long long other_index, bool last_wins = false) {
  const bool tie_goes_over = last_wins ? other_index > index : other_index < index;
  if (other_index >= 0 &&
      (index < 0 || other_value > value || (other_value == value && tie_goes_over))) {
    value = other_value;
    index = other_index;
  }
}

// The block's best (value, index) pair, in thread 0, by the rule of keep_better.
__device__ inline void block_arg_max(float& value, long long& index, bool last_wins = false) {
  __shared__ float values[WARP_SIZE];
  __shared__ long long indices[WARP_SIZE];
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    keep_better(value, index, __shfl_down_sync(0xffffffffu, value, offset),
                __shfl_down_sync(0xffffffffu, index, offset), last_wins);
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  if (lane == 0) {
    values[warp] = value;
    indices[warp] = index;
  }
  __syncthreads();
  if (warp != 0) return;
  const bool mine = lane < static_cast<int>(blockDim.x / WARP_SIZE);
  value = mine ? values[lane] : -INFINITY;
  index = mine ? indices[lane] : -1;
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    keep_better(value, index, __shfl_down_sync(0xffffffffu, value, offset),
                __shfl_down_sync(0xffffffffu, index, offset), last_wins);
}

}  // namespace wrong_helpers
}  // namespace reduction

#define UNUSED_NARROW_ROWS                                                                        \
  __global__ void row_sums_narrow(const float* __restrict__, float* __restrict__, long long, int, \
                                  int) {}
#define UNUSED_WIDE_ROWS                                                                   \
  __global__ void row_sums_wide(const float* __restrict__, float* __restrict__, long long, \
                                long long, int) {}
#define UNUSED_ARG_MAX \
  __global__ void arg_max(const float* __restrict__, long long, unsigned long long*) {}
// The solution's pass 1 and ticket, for wrong kernels whose mistake is in pass 2: past it only
// the last block runs, every other one has returned.
#define SOLUTION_PASS_1_THEN_LAST_BLOCK           \
  wrong_helpers::fixed_tile_sums(x, n, partials); \
  if (!wrong_helpers::last_block(blocks_done)) return;
#define UNUSED_DETERMINISTIC_SUM                                                                 \
  __global__ void deterministic_sum(const float* __restrict__, long long, float*, unsigned int*, \
                                    float* __restrict__) {}
