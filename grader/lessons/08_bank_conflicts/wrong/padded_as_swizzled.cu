// Wrong on purpose: the padded kernel submitted for swizzled. Right and as fast as the rung, but
// it pads B to float[32][33] instead of swizzling an unpadded tile: the step's check of the
// kernel's shared-memory size must refuse it.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_DOUBLE_KERNEL(tile_product_padded_64)

__global__ void tile_product_swizzled(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM + 1];  // padded, not swizzled
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0f;
  bs[y][x] = inside ? b[row * cols + col] : 0.0f;
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
