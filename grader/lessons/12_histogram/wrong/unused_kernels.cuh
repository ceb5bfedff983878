// Wrong-kernel submissions are graded only on the step the manifest names. The kernels of the
// other steps are empty here (never graded in that variant); the helpers are the solution's.
#pragma once
#include "histogram.cuh"
#include "rungs.cuh"

namespace histogram {
namespace wrong_helpers {

using rungs::global_thread;
using rungs::grid_threads;

// The block's counters to 0, then a barrier.
__device__ __forceinline__ void clear(unsigned* counts) {
  counts[threadIdx.x] = 0;  // BLOCK_THREADS == BINS
  __syncthreads();
}

// The solution's word: one shared atomic per byte.
__device__ __forceinline__ void count_word(unsigned* counts, unsigned v) {
  for (int k = 0; k < 4; ++k) atomicAdd(&counts[(v >> (8 * k)) & 255u], 1u);
}

// The solution's counting loop: the whole words, grid-stride, then the 0-3 bytes left.
__device__ __forceinline__ void count_words(const unsigned char* __restrict__ data, long long n,
                                            unsigned* counts) {
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = global_thread();
  for (long long w = g; w < whole; w += grid_threads()) count_word(counts, words[w]);
  if (g < n - 4 * whole) atomicAdd(&counts[data[4 * whole + g]], 1u);
}

// The solution's merge: a barrier, then one global atomic per nonzero bin of the block.
__device__ __forceinline__ void merge(const unsigned* counts, unsigned* __restrict__ bins) {
  __syncthreads();
  if (counts[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
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
