// Wrong on purpose: four streams, but a cudaStreamSynchronize after every chunk: one chunk in
// flight at a time. Right results; serial.
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
  for (std::size_t c = 0; err == cudaSuccess && c * chunk < n; ++c) {
    const std::size_t first = c * chunk;
    err = enqueue_chunk(in, out, d_x, d_y, first, std::min(chunk, n - first), s[c % 4]);
    if (err == cudaSuccess) err = cudaStreamSynchronize(s[c % 4]);  // waits for this chunk
  }
  for (int k = 0; k < created; ++k) {
    const cudaError_t waited = cudaStreamSynchronize(s[k]);
    if (err == cudaSuccess) err = waited;
    const cudaError_t destroyed = cudaStreamDestroy(s[k]);
    if (err == cudaSuccess) err = destroyed;
  }
  return err;
}
}  // namespace streams
