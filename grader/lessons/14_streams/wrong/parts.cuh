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
#define RIGHT_PINNED_ALLOC                                                                  \
  cudaError_t pinned_alloc(float** p, std::size_t n) {                                      \
    *p = nullptr;                                                                           \
    if (n == 0) return cudaSuccess;                                                         \
    const cudaError_t err = cudaMallocHost(reinterpret_cast<void**>(p), n * sizeof(float)); \
    if (err != cudaSuccess) *p = nullptr;                                                   \
    return err;                                                                             \
  }
#define RIGHT_PINNED                  \
  RIGHT_PINNED_ALLOC                  \
  cudaError_t pinned_free(float* p) { \
    return cudaFreeHost(p);           \
  }

namespace streams {
// One chunk's three stages on `st`, in the right order (the wrong pipelines differ elsewhere).
inline cudaError_t enqueue_chunk(const float* in, float* out, float* d_x, float* d_y,
                                 std::size_t first, std::size_t count, cudaStream_t st) {
  const std::size_t bytes = count * sizeof(float);
  cudaError_t err = cudaMemcpyAsync(d_x + first, in + first, bytes, cudaMemcpyHostToDevice, st);
  if (err == cudaSuccess) err = launch_transform(d_x + first, d_y + first, count, st);
  if (err == cudaSuccess)
    err = cudaMemcpyAsync(out + first, d_y + first, bytes, cudaMemcpyDeviceToHost, st);
  return err;
}

// Up to `k` (<= 8) streams made with cudaStreamCreateWithFlags(flags); `created` counts them.
struct Streams {
  cudaStream_t s[8] = {};
  int created = 0;
  cudaError_t err = cudaSuccess;
  Streams(int k, unsigned flags = cudaStreamNonBlocking) {
    while (created < k && err == cudaSuccess)
      if ((err = cudaStreamCreateWithFlags(&s[created], flags)) == cudaSuccess) ++created;
  }
  // Synchronizes (when `wait`) and destroys (when `destroy`) every stream; the first error.
  cudaError_t finish(cudaError_t first, bool wait = true, bool destroy = true) {
    for (int k = 0; k < created; ++k) {
      const cudaError_t waited = wait ? cudaStreamSynchronize(s[k]) : cudaSuccess;
      if (first == cudaSuccess) first = waited;
      const cudaError_t destroyed = destroy ? cudaStreamDestroy(s[k]) : cudaSuccess;
      if (first == cudaSuccess) first = destroyed;
    }
    return first;
  }
};

// `chunks` chunks, chunk c on stream_of(c); with `sync_each`, a cudaStreamSynchronize after each.
template <typename StreamOf>
cudaError_t enqueue_all(const float* in, float* out, float* d_x, float* d_y, std::size_t n,
                        std::size_t chunks, StreamOf stream_of, bool sync_each = false) {
  const std::size_t chunk = (n + chunks - 1) / chunks;
  cudaError_t err = cudaSuccess;
  for (std::size_t c = 0; err == cudaSuccess && c * chunk < n; ++c) {
    const cudaStream_t st = stream_of(c);
    err = enqueue_chunk(in, out, d_x, d_y, c * chunk, std::min(chunk, n - c * chunk), st);
    if (err == cudaSuccess && sync_each) err = cudaStreamSynchronize(st);
  }
  return err;
}
}  // namespace streams
