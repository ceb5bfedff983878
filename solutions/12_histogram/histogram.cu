// Lesson 12_histogram: the course's solution (see exercises/12_histogram/histogram.cu for the
// stub, lessons/12_histogram/README.md for the lesson).
#include "histogram.cuh"

namespace histogram {

namespace {

__device__ __forceinline__ long long global_thread() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ long long grid_threads() {
  return static_cast<long long>(gridDim.x) * blockDim.x;
}

// The block's one set of BINS counters to 0, then a barrier: no thread counts before all are
// cleared (shared memory starts with whatever an earlier block left in it).
__device__ __forceinline__ void clear(unsigned* counts) {
  counts[threadIdx.x] = 0;  // BLOCK_THREADS == BINS: one counter per thread
  __syncthreads();
}

// The four bytes of word v, one shared atomic each: few instructions per byte, so that loads keep
// coming at the rate DRAM delivers them.
__device__ __forceinline__ void count_word(unsigned* counts, unsigned v) {
#pragma unroll
  for (int k = 0; k < 4; ++k) atomicAdd(&counts[(v >> (8 * k)) & 255u], 1u);
}

// A barrier (every warp done counting), then thread t makes the block's one global atomic for bin
// t (none when the block saw no such byte).
__device__ __forceinline__ void merge(const unsigned* counts, unsigned* __restrict__ bins) {
  __syncthreads();
  const unsigned total = counts[threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

}  // namespace

__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  for (long long i = global_thread(); i < n; i += grid_threads()) atomicAdd(&bins[data[i]], 1u);
}

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  clear(counts);
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = global_thread();
  for (long long w = g; w < whole; w += grid_threads()) count_word(counts, words[w]);
  if (g < n - 4 * whole) atomicAdd(&counts[data[4 * whole + g]], 1u);  // the 0-3 bytes left
  merge(counts, bins);
}

__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  clear(counts);
  const uint4* vectors = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16, stride = grid_threads(), g = global_thread();
  long long i = g;
  // Two 16-byte loads issued before their atomics: 32 bytes in flight per thread.
  for (; i + stride < whole; i += 2 * stride) {
    const uint4 a = vectors[i], b = vectors[i + stride];
    count_word(counts, a.x), count_word(counts, a.y), count_word(counts, a.z);
    count_word(counts, a.w), count_word(counts, b.x), count_word(counts, b.y);
    count_word(counts, b.z), count_word(counts, b.w);
  }
  if (i < whole) {
    const uint4 a = vectors[i];
    count_word(counts, a.x), count_word(counts, a.y), count_word(counts, a.z);
    count_word(counts, a.w);
  }
  if (g < n - 16 * whole) atomicAdd(&counts[data[16 * whole + g]], 1u);  // the 0-15 bytes left
  merge(counts, bins);
}

}  // namespace histogram
