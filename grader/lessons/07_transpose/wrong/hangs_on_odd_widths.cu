// Wrong on purpose: the naive transpose, except that on every odd width it spins on a value that
// never changes, so the kernel never returns. Most shapes of the step have an odd width: each one
// hangs until the grader stops it. The step's hung tests share one time budget, so this costs a
// student seconds, not one kernel timeout per shape; every test still gets a line.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (cols % 2 == 1) {
    volatile const float* v = in;
    while (v[0] == v[0]) {  // finite inputs: always true, and volatile keeps the loop
    }
  }
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) out[x * rows + (y + j)] = in[(y + j) * cols + x];
}
}  // namespace transpose
