// Wrong on purpose: the swizzle on the store only. Element (r, k) of B is stored at bs[r][k ^ r],
// but read back from bs[x][k], which holds element (x, k ^ x): conflict-free, fast and wrong.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_DOUBLE_KERNEL(tile_product_padded_64)

__global__ void tile_product_swizzled(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : float(0);
  bs[y][x ^ y] = inside ? b[row * cols + col] : 0.0f;  // swizzled store
  __syncthreads();
  float sum = 0;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k] /* plain read */;
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
