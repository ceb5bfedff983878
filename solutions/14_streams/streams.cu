// Lesson 14_streams, solved: page-locked buffers (step `pinned`) and a pipeline of chunks over
// four streams (step `overlap`).
#include <algorithm>

#include "streams.cuh"

namespace streams {

cudaError_t pinned_alloc(float** p, std::size_t n) {
  *p = nullptr;
  if (n == 0) return cudaSuccess;
  const cudaError_t err = cudaMallocHost(reinterpret_cast<void**>(p), n * sizeof(float));
  if (err != cudaSuccess) *p = nullptr;
  return err;
}

cudaError_t pinned_free(float* p) {
  return cudaFreeHost(p);  // nullptr: nothing to do, cudaSuccess
}

namespace {
constexpr int kStreams = 4;          // H2D, kernel and D2H of three chunks in flight, and one more
constexpr std::size_t kChunks = 16;  // a chunk of 256 MiB is 16 MiB: ~0.3 ms per copy
}  // namespace

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  cudaStream_t s[kStreams] = {};
  int created = 0;
  cudaError_t err = cudaSuccess;
  while (created < kStreams && err == cudaSuccess) {
    err = cudaStreamCreateWithFlags(&s[created], cudaStreamNonBlocking);
    if (err == cudaSuccess) ++created;
  }
  const std::size_t chunk = (n + kChunks - 1) / kChunks;
  for (std::size_t c = 0; err == cudaSuccess && c * chunk < n; ++c) {
    const cudaStream_t st = s[c % kStreams];
    const std::size_t first = c * chunk, count = std::min(chunk, n - first);
    const std::size_t bytes = count * sizeof(float);
    err = cudaMemcpyAsync(d_x + first, in + first, bytes, cudaMemcpyHostToDevice, st);
    if (err == cudaSuccess) err = launch_transform(d_x + first, d_y + first, count, st);
    if (err == cudaSuccess)
      err = cudaMemcpyAsync(out + first, d_y + first, bytes, cudaMemcpyDeviceToHost, st);
  }
  // Every path: wait for what was enqueued, then destroy the streams; keep the first error.
  for (int k = 0; k < created; ++k) {
    const cudaError_t waited = cudaStreamSynchronize(s[k]);
    if (err == cudaSuccess) err = waited;
    const cudaError_t destroyed = cudaStreamDestroy(s[k]);
    if (err == cudaSuccess) err = destroyed;
  }
  return err;
}

}  // namespace streams
