// Wrong on purpose: the row from the x indices and the column from the y indices, with the right
// bounds checks. The x dimension of the launch is sized for the columns (ceil(cols / 32) blocks of
// 32), the y dimension for the rows (ceil(rows / 8) blocks of 8), so this kernel reaches rows below
// 32 * ceil(cols / 32) and columns below 8 * ceil(rows / 8). Right on square matrices; on a tall
// one (33 x 31) row 32 is never written, on a wide one (31 x 33) column 32.
#include "unused_kernels.cuh"

namespace matrix_2d {
UNUSED_SCALE_ADD_PITCHED

__global__ void scale_add_dense(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols, float a, float b) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = a * in[r * cols + c] + b;
}
}  // namespace matrix_2d
