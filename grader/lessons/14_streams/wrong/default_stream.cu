// Wrong on purpose: four streams created, but every copy and launch goes to stream 0, the legacy
// default stream. Right results; serial.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  cudaStream_t s[4] = {};
  int created = 0;
  cudaError_t err = cudaSuccess;
  while (created < 4 && err == cudaSuccess)
    if ((err = cudaStreamCreate(&s[created])) == cudaSuccess) ++created;
  const std::size_t chunk = (n + 15) / 16;
  for (std::size_t first = 0; err == cudaSuccess && first < n; first += chunk)
    err = enqueue_chunk(in, out, d_x, d_y, first, std::min(chunk, n - first), 0);  // not s[c % 4]
  const cudaError_t waited = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = waited;
  for (int k = 0; k < created; ++k) {
    const cudaError_t destroyed = cudaStreamDestroy(s[k]);
    if (err == cudaSuccess) err = destroyed;
  }
  return err;
}
}  // namespace streams
