// Wrong on purpose: the barrier sits inside the bounds check, so on partial tiles the threads
// outside the matrix never reach it. That is undefined behaviour (it may hang, or pass by luck);
// compute-sanitizer synccheck must report it, and a hang must be stopped, never waited on.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x < cols && y < rows) {
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();  // not reached by the threads outside the matrix
  }
  const int ox = blockIdx.y * TILE_DIM + threadIdx.x;
  const int oy = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (ox < rows && oy + j < cols) out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
}
}  // namespace transpose
