// Wrong on purpose (slow, not incorrect): the nearest miss of step tiled_padded, padded by the
// wrong amount. The tile is float[32][34]: "pad by two to keep 8-byte alignment" (a habit from
// double tiles). Element (r, c) sits in bank (34 * r + c) % 32 = (2 r + c) % 32, so the
// column-wise read tile[threadIdx.x][...] puts lanes l and l + 16 in the same bank: a 2-way
// conflict on every read of the tile (2 wavefronts instead of 1), against the 32-way conflict of
// the unpadded tile (`unpadded_as_padded`, 45%). The stores along the rows stay conflict-free.
// Correct on every shape: the gate must sit above it.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 2];  // + 1 is the step's padding
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
}  // namespace transpose
