// Wrong on purpose: on a 1x1 matrix it spins on a value that never changes, so the kernel never
// returns. The grader must stop it, report a hang on that test, and grade the other shapes.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (rows == 1 && cols == 1) {
    volatile const float* v = in;
    while (v[0] == v[0]) {  // finite inputs: always true, and volatile keeps the loop
    }
  }
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) out[x * rows + (y + j)] = in[(y + j) * cols + x];
}
}  // namespace transpose
