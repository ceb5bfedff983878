// Wrong on purpose (a near miss): two streams, two halves. Right results; the first half's copy
// in and the second half's copy out run alone.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  cudaStream_t s[2] = {};
  int created = 0;
  cudaError_t err = cudaSuccess;
  while (created < 2 && err == cudaSuccess)
    if ((err = cudaStreamCreateWithFlags(&s[created], cudaStreamNonBlocking)) == cudaSuccess)
      ++created;
  const std::size_t half = (n + 1) / 2;
  for (std::size_t c = 0; err == cudaSuccess && c * half < n; ++c)
    err = enqueue_chunk(in, out, d_x, d_y, c * half, std::min(half, n - c * half), s[c]);
  for (int k = 0; k < created; ++k) {
    const cudaError_t waited = cudaStreamSynchronize(s[k]);
    if (err == cudaSuccess) err = waited;
    const cudaError_t destroyed = cudaStreamDestroy(s[k]);
    if (err == cudaSuccess) err = destroyed;
  }
  return err;
}
}  // namespace streams
