// A student's trial of lesson 12_histogram (tenth session, written from the texts alone on a
// machine without a GPU; compiled for sm_90, never run). Grade it on a GPU: copy it over
// exercises/12_histogram/histogram.cu in a scratch clone, run ./build/grader 12_histogram and
// --sanitize.

// Lesson 12_histogram: complete the kernels below, then run `./build/grader 12_histogram`.
//
// The launches are in lessons/12_histogram/launch.cu and are not yours to change: blocks of 256
// threads (8 warps), at most one wave of blocks (histogram_grid), and bins set to 0 before each
// kernel starts. The header lessons/12_histogram/histogram.cuh documents every kernel;
// README.md explains the lesson.
//
//   step global_atomics: histogram_global, one atomicAdd per byte on the global bins
//   steps privatized, skew_10, skew_40, skew_90: histogram_shared, counters in shared memory
//   step beyond_cub:     histogram_vector, the same with 16-byte loads (optional, the stretch)
//
// Write __device__ helpers above the kernels (clearing the counters, counting a word, the merge)
// and use them in both shared-memory kernels.
#include "histogram.cuh"

namespace histogram {

namespace {

// This thread's index in the whole grid, and the number of threads of the grid (64-bit: n may
// pass 2^31).
__device__ __forceinline__ long long grid_thread() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ long long grid_threads() {
  return static_cast<long long>(gridDim.x) * blockDim.x;
}

// Sets `count` counters of shared memory to 0, the block's threads striding over them.
// The launch has blockDim.x == BLOCK_THREADS == BINS, so for one copy this is one store per thread.
__device__ __forceinline__ void clear_counters(unsigned* counts, int count) {
  for (int i = threadIdx.x; i < count; i += blockDim.x) counts[i] = 0;
}

// Counts the four bytes of one 4-byte word (byte k is bits 8k .. 8k+7) into `counts`.
__device__ __forceinline__ void count_word(unsigned* counts, unsigned v) {
#pragma unroll
  for (int k = 0; k < 4; ++k) atomicAdd(&counts[(v >> (8 * k)) & 255u], 1u);
}

// Counts the sixteen bytes of one uint4 into `counts`.
__device__ __forceinline__ void count_vec(unsigned* counts, uint4 v) {
  count_word(counts, v.x);
  count_word(counts, v.y);
  count_word(counts, v.z);
  count_word(counts, v.w);
}

// Adds `copies` copies of the BINS counters (copy c at counts + c * BINS) into the global bins:
// thread t sums bin t over the copies and makes one device-scope atomicAdd if the sum is not 0.
// Call after a __syncthreads() that ends the counting. Needs blockDim.x >= BINS.
__device__ __forceinline__ void merge_counters(const unsigned* counts, int copies,
                                               unsigned* __restrict__ bins) {
  const int t = threadIdx.x;
  if (t >= BINS) return;
  unsigned sum = 0;
  for (int c = 0; c < copies; ++c) sum += counts[c * BINS + t];
  // atomicAdd, not atomicAdd_block: every block adds into the same global bins.
  if (sum != 0) atomicAdd(&bins[t], sum);
}

}  // namespace

// Grid: histogram_grid(n) blocks of 256 threads, usually far fewer threads than bytes.
__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  const long long stride = grid_threads();
  // data[i] is an unsigned char: 0 .. 255, never a negative index.
  for (long long i = grid_thread(); i < n; i += stride) atomicAdd(&bins[data[i]], 1u);
}

// Grid: histogram_grid(n) blocks of 256 threads; data is 16-byte aligned.
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];  // one copy of the bins for the block
  clear_counters(counts, BINS);
  __syncthreads();  // no thread counts before every counter is 0

  const long long first = grid_thread();
  const long long stride = grid_threads();
  // Whole 4-byte words: data comes from cudaMalloc, so words[w] is aligned.
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long n_words = n / 4;
  for (long long w = first; w < n_words; w += stride) count_word(counts, words[w]);
  // The 0-3 bytes after the last whole word, one each for the first threads of the grid.
  const long long tail = n_words * 4 + first;
  if (tail < n) atomicAdd(&counts[data[tail]], 1u);

  __syncthreads();  // every warp has finished counting before any thread merges
  merge_counters(counts, 1, bins);
}

// Grid: histogram_grid(n) blocks of 256 threads; data is 16-byte aligned.
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  // A copy of the bins per warp (8 x 1 KiB): warps never update the same shared address.
  __shared__ unsigned counts[WARPS_PER_BLOCK * BINS];
  clear_counters(counts, WARPS_PER_BLOCK * BINS);
  __syncthreads();

  unsigned* mine = counts + (threadIdx.x / WARP_SIZE) * BINS;
  const long long first = grid_thread();
  const long long stride = grid_threads();
  const uint4* vecs = reinterpret_cast<const uint4*>(data);
  const long long n_vecs = n / 16;
  long long i = first;
  // Two 16-byte loads issued before their atomics: 32 bytes in flight per thread.
  for (; i + stride < n_vecs; i += 2 * stride) {
    const uint4 a = vecs[i];
    const uint4 b = vecs[i + stride];
    count_vec(mine, a);
    count_vec(mine, b);
  }
  if (i < n_vecs) count_vec(mine, vecs[i]);  // an odd last vector of this thread
  // The 0-15 bytes after the last whole vector, one each for the first threads of the grid.
  const long long tail = n_vecs * 16 + first;
  if (tail < n) atomicAdd(&mine[data[tail]], 1u);

  __syncthreads();
  merge_counters(counts, WARPS_PER_BLOCK, bins);
}

}  // namespace histogram
