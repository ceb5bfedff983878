// Wrong on purpose: the chunks and the asynchronous copies, all on one created stream. Right
// results; each stage waits for the one before it (serial).
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  cudaStream_t s = nullptr;
  cudaError_t err = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (err != cudaSuccess) return err;
  const std::size_t chunk = (n + 15) / 16;
  for (std::size_t first = 0; err == cudaSuccess && first < n; first += chunk)
    err = enqueue_chunk(in, out, d_x, d_y, first, std::min(chunk, n - first), s);
  const cudaError_t waited = cudaStreamSynchronize(s);
  if (err == cudaSuccess) err = waited;
  const cudaError_t destroyed = cudaStreamDestroy(s);
  return err == cudaSuccess ? destroyed : err;
}
}  // namespace streams
