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

// The stretch: 16-byte loads and a copy of the counters per warp. Each uint4 is 16 bytes in one
// load instruction (512 bytes per warp instruction instead of 128); two are issued before their
// atomics, so each thread has 32 bytes in flight. With a copy per warp, the block's 8 warps never
// update the same shared address (their atomics on a common bin are not serialized against each
// other); the merge adds 8 counters per bin. On uniform bytes our H200 ran this faster than CUB
// (calibration.md); the one-copy kernel with the same loads was about 3 points slower.
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[WARPS_PER_BLOCK][BINS];
  for (int i = threadIdx.x; i < WARPS_PER_BLOCK * BINS; i += BLOCK_THREADS) (&counts[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const uint4* vectors = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16, stride = grid_threads(), g = global_thread();
  long long i = g;
  for (; i + stride < whole; i += 2 * stride) {
    const uint4 a = vectors[i], b = vectors[i + stride];
    count_word(mine, a.x), count_word(mine, a.y), count_word(mine, a.z), count_word(mine, a.w);
    count_word(mine, b.x), count_word(mine, b.y), count_word(mine, b.z), count_word(mine, b.w);
  }
  if (i < whole) {
    const uint4 a = vectors[i];
    count_word(mine, a.x), count_word(mine, a.y), count_word(mine, a.z), count_word(mine, a.w);
  }
  if (g < n - 16 * whole) atomicAdd(&mine[data[16 * whole + g]], 1u);  // the 0-15 bytes left
  __syncthreads();                                                     // every warp done counting
  unsigned total = 0;
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

}  // namespace histogram
