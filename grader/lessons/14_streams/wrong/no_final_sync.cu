// Wrong on purpose: the right pipeline, but the streams are destroyed without being synchronized.
// cudaStreamDestroy returns at once (the work finishes later), so pipeline returns while the
// copies out are still running.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  cudaStream_t s[4] = {};
  int created = 0;
  cudaError_t err = cudaSuccess;
  while (created < 4 && err == cudaSuccess)
    if ((err = cudaStreamCreateWithFlags(&s[created], cudaStreamNonBlocking)) == cudaSuccess)
      ++created;
  const std::size_t chunk = (n + 15) / 16;
  for (std::size_t c = 0; err == cudaSuccess && c * chunk < n; ++c)
    err = enqueue_chunk(in, out, d_x, d_y, c * chunk, std::min(chunk, n - c * chunk), s[c % 4]);
  for (int k = 0; k < created; ++k) {
    const cudaError_t destroyed = cudaStreamDestroy(s[k]);  // no cudaStreamSynchronize first
    if (err == cudaSuccess) err = destroyed;
  }
  return err;
}
}  // namespace streams
