// Wrong on purpose: the chunks and the asynchronous copies, all on one created stream. Right
// results; each stage waits for the one before it (serial).
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  Streams st(1);
  cudaError_t err = st.err;
  if (err == cudaSuccess)
    err = enqueue_all(in, out, d_x, d_y, n, 16, [&](std::size_t) { return st.s[0]; });
  return st.finish(err);
}
}  // namespace streams
