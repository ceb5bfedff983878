// Wrong on purpose: the conflicted kernel submitted for padded. Right on every shape, but lane x
// reads bs[x][k], word 32x + k, bank k for all 32 lanes: every B read is a 32-way bank conflict.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)
UNUSED_DOUBLE_KERNEL(tile_product_padded_64)

__global__ void tile_product_padded(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM];  // the missing + 1
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : float(0);
  bs[y][x] = inside ? b[row * cols + col] : 0.0f;
  __syncthreads();
  float sum = 0;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
