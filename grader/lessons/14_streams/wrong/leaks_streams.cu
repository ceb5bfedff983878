// Wrong on purpose: the right pipeline, but its four streams are never destroyed.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  Streams st(4);
  cudaError_t err = st.err;
  if (err == cudaSuccess)
    err = enqueue_all(in, out, d_x, d_y, n, 16, [&](std::size_t c) { return st.s[c % 4]; });
  return st.finish(err, /*wait=*/true, /*destroy=*/false);  // forgotten: cudaStreamDestroy
}
}  // namespace streams
