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

// Grid: histogram_grid(n) blocks of 256 threads, usually far fewer threads than bytes.
__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  // TODO(global_atomics): a grid-stride loop over the n bytes; each byte adds 1 to its bin with
  // atomicAdd(&bins[byte], 1u). Keep the byte unsigned: 128-255 are bins too.
}

// Grid: histogram_grid(n) blocks of 256 threads; data is 16-byte aligned.
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  // TODO(privatized): one __shared__ copy of the 256 counters for the block (thread t clears
  // counter t), __syncthreads(), then a grid-stride loop reading 4 bytes at a time as one
  // unsigned (the 0-3 bytes after the last whole word one by one), each byte adding 1 to its
  // counter with a shared atomicAdd. __syncthreads(), then thread t makes the block's one
  // atomicAdd(&bins[t], counts[t]).
  // TODO(skew_10, skew_40, skew_90): the same kernel, timed on bytes of which 10%, 40% and 90% are
  // one value. Keep the loop lean: on our H200 one copy per block with an atomic per byte held up
  // under contention better than per-warp copies with equal bytes merged (README.md, step 3).
}

// Grid: histogram_grid(n) blocks of 256 threads; data is 16-byte aligned.
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  // TODO(beyond_cub): uint4 loads (16 bytes per thread per load, two per iteration issued before
  // their atomics; the 0-15 bytes after the last whole vector one by one) into a copy of the
  // counters per warp (README section 4), cleared first, merged after a barrier.
}

}  // namespace histogram
