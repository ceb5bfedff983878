// Lesson 12_histogram: the course's solution (see exercises/12_histogram/histogram.cu for the
// stub, lessons/12_histogram/README.md for the lesson).
#include "histogram.cuh"

namespace histogram {

namespace {

// One set of BINS counters per warp, in shared memory: 8 x 256 x 4 B = 8 KiB per block.
using WarpCounters = unsigned[WARPS_PER_BLOCK][BINS];

// Every counter of the block to 0, then a barrier: no thread counts before all are cleared.
__device__ __forceinline__ void clear(WarpCounters& counts) {
  unsigned* flat = &counts[0][0];
  for (int i = threadIdx.x; i < WARPS_PER_BLOCK * BINS; i += BLOCK_THREADS) flat[i] = 0;
  __syncthreads();
}

// The four bytes of word v (little-endian: byte k is bits 8k .. 8k + 7), one shared atomic per
// distinct byte, adding how many of the four equal it: a word of one repeated byte costs one
// atomic instead of four, which is what keeps contention down when most bytes are equal.
__device__ __forceinline__ void count_word(unsigned* mine, unsigned v) {
  const unsigned b0 = v & 255u, b1 = (v >> 8) & 255u, b2 = (v >> 16) & 255u, b3 = v >> 24;
  atomicAdd(&mine[b0], 1u + (b1 == b0) + (b2 == b0) + (b3 == b0));
  if (b1 != b0) atomicAdd(&mine[b1], 1u + (b2 == b1) + (b3 == b1));
  if (b2 != b0 && b2 != b1) atomicAdd(&mine[b2], 1u + (b3 == b2));
  if (b3 != b0 && b3 != b1 && b3 != b2) atomicAdd(&mine[b3], 1u);
}

__device__ __forceinline__ void count_vector(unsigned* mine, const uint4& q) {
  count_word(mine, q.x);
  count_word(mine, q.y);
  count_word(mine, q.z);
  count_word(mine, q.w);
}

// After a barrier (every warp done counting), thread t adds bin t of the 8 warps' counters and
// makes the block's one global atomic for that bin (none when the block saw no such byte).
__device__ __forceinline__ void merge(const WarpCounters& counts, unsigned* __restrict__ bins) {
  __syncthreads();
  unsigned total = 0;
#pragma unroll
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}

__device__ __forceinline__ long long global_thread() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ long long grid_threads() {
  return static_cast<long long>(gridDim.x) * blockDim.x;
}

}  // namespace

__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  for (long long i = global_thread(); i < n; i += grid_threads()) atomicAdd(&bins[data[i]], 1u);
}

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ WarpCounters counts;
  clear(counts);
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = global_thread(), stride = grid_threads();
  for (long long w = g; w < whole; w += stride) count_word(mine, words[w]);
  if (g < n - 4 * whole) atomicAdd(&mine[data[4 * whole + g]], 1u);  // the 0-3 bytes left
  merge(counts, bins);
}

__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ WarpCounters counts;
  clear(counts);
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const uint4* vectors = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16, stride = grid_threads();
  long long i = global_thread();
  const long long g = i;
  // Two 16-byte loads issued before their atomics: 32 bytes in flight per thread.
  for (; i + stride < whole; i += 2 * stride) {
    const uint4 a = vectors[i], b = vectors[i + stride];
    count_vector(mine, a);
    count_vector(mine, b);
  }
  if (i < whole) count_vector(mine, vectors[i]);
  if (g < n - 16 * whole) atomicAdd(&mine[data[16 * whole + g]], 1u);  // the 0-15 bytes left
  merge(counts, bins);
}

}  // namespace histogram
