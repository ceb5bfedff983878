// Wrong on purpose: the tiled transpose whose load checks only the column (x < cols), not the
// row. Threads of a partial bottom tile read rows past the end of `in`; the values land in tile
// rows that no in-bounds store reads, so every output is right and nothing faults (the reads stay
// inside the allocation's slack or the guard). Only compute-sanitizer memcheck on the small
// shapes, part of the default grade, can see the reads.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];  // row unchecked
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
}  // namespace transpose
