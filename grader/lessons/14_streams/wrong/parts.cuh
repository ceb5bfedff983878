// Wrong submissions are graded only on the step the manifest names. A `pinned` submission leaves
// pipeline unwritten (as the stub does); an `overlap` submission gets the right pinned_alloc and
// pinned_free (never graded there).
#pragma once
#include <algorithm>

#include "streams.cuh"

// pipeline as the stub leaves it.
#define UNWRITTEN_PIPELINE                                                  \
  cudaError_t pipeline(const float*, float*, float*, float*, std::size_t) { \
    return cudaErrorNotYetImplemented;                                      \
  }

// The right pinned_alloc and pinned_free.
#define RIGHT_PINNED                                                                  \
  cudaError_t pinned_alloc(float** p, std::size_t n) {                                \
    *p = nullptr;                                                                     \
    if (n == 0) return cudaSuccess;                                                   \
    cudaError_t err = cudaMallocHost(reinterpret_cast<void**>(p), n * sizeof(float)); \
    if (err != cudaSuccess) *p = nullptr;                                             \
    return err;                                                                       \
  }                                                                                   \
  cudaError_t pinned_free(float* p) {                                                 \
    return cudaFreeHost(p);                                                           \
  }

namespace streams {
// One chunk's three stages on `st` (the right order; the wrong pipelines differ elsewhere).
inline cudaError_t enqueue_chunk(const float* in, float* out, float* d_x, float* d_y,
                                 std::size_t first, std::size_t count, cudaStream_t st) {
  const std::size_t bytes = count * sizeof(float);
  cudaError_t err = cudaMemcpyAsync(d_x + first, in + first, bytes, cudaMemcpyHostToDevice, st);
  if (err == cudaSuccess) err = launch_transform(d_x + first, d_y + first, count, st);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(out + first, d_y + first, bytes, cudaMemcpyDeviceToHost, st);
  return err;
}
}  // namespace streams
