// Wrong on purpose: the naive transpose without bounds checks. On shapes that are not multiples of
// 32 the edge threads read past rows and write past the end of the output; the guard elements
// after the output must catch the writes that land there.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x * rows + (y + j)] = in[(y + j) * cols + x];
}
}  // namespace transpose
