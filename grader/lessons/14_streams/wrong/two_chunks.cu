// Wrong on purpose (a near miss): two streams, two halves. Right results; the first half's copy
// in and the second half's copy out run alone.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED

cudaError_t pipeline(const float* in, float* out, float* d_x, float* d_y, std::size_t n) {
  if (n == 0) return cudaSuccess;
  Streams st(2);
  cudaError_t err = st.err;
  if (err == cudaSuccess)
    err = enqueue_all(in, out, d_x, d_y, n, 2, [&](std::size_t c) { return st.s[c % 2]; });
  return st.finish(err);
}
}  // namespace streams
