// Wrong on purpose: a pitched matrix indexed as if it were dense, element (r, c) at [r * cols + c].
// Row r >= 1 then starts r * (pitch - cols * 4) bytes too early: the rows of the result are
// packed into the first rows * cols * 4 bytes, across the padding of the first rows, and the
// later rows are never written. Right only when the pitch equals the width (a one-row matrix).
#include "unused_kernels.cuh"

namespace matrix_2d {
UNUSED_SCALE_ADD_DENSE

__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = a * in[r * cols + c] + b;
}
}  // namespace matrix_2d
