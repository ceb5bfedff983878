// Wrong-kernel submissions are graded only on the step the manifest names. The kernels of the
// other steps are empty here (never graded in that variant); the helpers are the solution's.
#pragma once
#include "histogram.cuh"
#include "rungs.cuh"

namespace histogram {
namespace wrong_helpers {

using WarpCounters = unsigned[WARPS_PER_BLOCK][BINS];

using rungs::global_thread;
using rungs::grid_threads;

// Every counter of the block to 0, then a barrier.
__device__ __forceinline__ void clear(unsigned* counters, int count) {
  for (int i = threadIdx.x; i < count; i += BLOCK_THREADS) counters[i] = 0;
  __syncthreads();
}

// The solution's word: one shared atomic per distinct byte of v.
__device__ __forceinline__ void count_word(unsigned* mine, unsigned v) {
  const unsigned b0 = v & 255u, b1 = (v >> 8) & 255u, b2 = (v >> 16) & 255u, b3 = v >> 24;
  atomicAdd(&mine[b0], 1u + (b1 == b0) + (b2 == b0) + (b3 == b0));
  if (b1 != b0) atomicAdd(&mine[b1], 1u + (b2 == b1) + (b3 == b1));
  if (b2 != b0 && b2 != b1) atomicAdd(&mine[b2], 1u + (b3 == b2));
  if (b3 != b0 && b3 != b1 && b3 != b2) atomicAdd(&mine[b3], 1u);
}

// The solution's counting loop: the whole words, grid-stride, then the 0-3 bytes left.
__device__ __forceinline__ void count_words(const unsigned char* __restrict__ data, long long n,
                                            unsigned* mine) {
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = global_thread();
  for (long long w = g; w < whole; w += grid_threads()) count_word(mine, words[w]);
  if (g < n - 4 * whole) atomicAdd(&mine[data[4 * whole + g]], 1u);
}

// Bin threadIdx.x of the 8 warps' counters.
__device__ __forceinline__ unsigned bin_total(const WarpCounters& counts) {
  unsigned total = 0;
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += counts[w][threadIdx.x];
  return total;
}

// The solution's merge: a barrier, then bin t of every warp's counters, one global atomic.
__device__ __forceinline__ void merge(const WarpCounters& counts, unsigned* __restrict__ bins) {
  __syncthreads();
  const unsigned total = bin_total(counts);
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

}  // namespace wrong_helpers
}  // namespace histogram

#define UNUSED_HISTOGRAM_GLOBAL                                                  \
  __global__ void histogram_global(const unsigned char* __restrict__, long long, \
                                   unsigned* __restrict__) {}
#define UNUSED_HISTOGRAM_SHARED                                                  \
  __global__ void histogram_shared(const unsigned char* __restrict__, long long, \
                                   unsigned* __restrict__) {}
#define UNUSED_HISTOGRAM_VECTOR                                                  \
  __global__ void histogram_vector(const unsigned char* __restrict__, long long, \
                                   unsigned* __restrict__) {}
