// Wrong on purpose: a block whose tile is not a full 32 x 32 tile returns at once (before the
// barrier, which is legal only because the whole block returns). Right on multiples of 32; on
// every other shape the right and bottom edges stay unwritten.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)
UNUSED_DOUBLE_KERNEL(tile_product_padded_64)

__global__ void tile_product_conflicted(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int rows, int cols) {
  if ((blockIdx.y + 1) * TILE_DIM > rows || (blockIdx.x + 1) * TILE_DIM > cols) return;
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  as[y][x] = a[row * cols + col];
  bs[y][x] = b[row * cols + col];
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
