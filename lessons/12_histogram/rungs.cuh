/// @file rungs.cuh
/// @brief The course's own histogram kernels that are not a step's answer: the rungs of the lab's
/// tables (bench.cu), which the grader's near-miss wrong kernels run as well
/// (grader/lessons/12_histogram/wrong/). Device functions: a kernel calls one with its arguments.
#pragma once

#include "histogram.cuh"

namespace histogram {
namespace rungs {

/// The calling thread's index in the whole grid (blocks of one dimension).
__device__ __forceinline__ long long global_thread() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

/// Threads in the whole grid: the stride of a grid-stride loop.
__device__ __forceinline__ long long grid_threads() {
  return static_cast<long long>(gridDim.x) * blockDim.x;
}

/// Per-warp shared counters (8 x 256 x 4 B = 8 KiB per block), 4-byte loads, and equal bytes of a
/// word merged before their atomics (one shared atomic per distinct byte, adding how many of the
/// four it stands for), as CUB's run-length option does for runs of equal samples. Correct; on the
/// H200 the extra instructions per word cost more than the atomics they save, on uniform and on
/// skewed bytes (lessons/12_histogram/calibration.md). Launch as histogram_shared.
__device__ __forceinline__ void warp_counters_merged(const unsigned char* __restrict__ data,
                                                     long long n, unsigned* __restrict__ bins) {
  __shared__ unsigned counts[WARPS_PER_BLOCK][BINS];
  for (int i = threadIdx.x; i < WARPS_PER_BLOCK * BINS; i += BLOCK_THREADS) (&counts[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = global_thread();
  for (long long w = g; w < whole; w += grid_threads()) {
    const unsigned v = words[w];
    const unsigned b0 = v & 255u, b1 = (v >> 8) & 255u, b2 = (v >> 16) & 255u, b3 = v >> 24;
    atomicAdd(&mine[b0], 1u + (b1 == b0) + (b2 == b0) + (b3 == b0));
    if (b1 != b0) atomicAdd(&mine[b1], 1u + (b2 == b1) + (b3 == b1));
    if (b2 != b0 && b2 != b1) atomicAdd(&mine[b2], 1u + (b3 == b2));
    if (b3 != b0 && b3 != b1 && b3 != b2) atomicAdd(&mine[b3], 1u);
  }
  if (g < n - 4 * whole) atomicAdd(&mine[data[4 * whole + g]], 1u);
  __syncthreads();
  unsigned total = 0;
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

/// Per-warp shared counters, but one byte per thread per iteration (unsigned char loads) and one
/// shared atomic per byte. Launch as histogram_shared.
__device__ __forceinline__ void byte_loads(const unsigned char* __restrict__ data, long long n,
                                           unsigned* __restrict__ bins) {
  __shared__ unsigned counts[WARPS_PER_BLOCK][BINS];
  for (int i = threadIdx.x; i < WARPS_PER_BLOCK * BINS; i += BLOCK_THREADS) (&counts[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  for (long long i = global_thread(); i < n; i += grid_threads()) atomicAdd(&mine[data[i]], 1u);
  __syncthreads();
  unsigned total = 0;
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

/// No privatization: each warp groups its lanes by byte with __match_any_sync and the lowest lane
/// of each group adds the group's size to the global bin. Launch as histogram_global.
__device__ __forceinline__ void warp_aggregated(const unsigned char* __restrict__ data, long long n,
                                                unsigned* __restrict__ bins) {
  const int lane = threadIdx.x % WARP_SIZE;
  const long long stride = grid_threads();  // a multiple of 32: the warps stay whole
  for (long long base = global_thread() - lane; base < n; base += stride) {
    const long long i = base + lane;
    // Lanes past n get a key no byte has, unique to the lane, and add nothing.
    const unsigned key = i < n ? data[i] : 256u + lane;
    const unsigned group = __match_any_sync(0xffffffffu, key);
    if (key < 256u && lane == __ffs(group) - 1) atomicAdd(&bins[key], __popc(group));
  }
}

}  // namespace rungs
}  // namespace histogram
