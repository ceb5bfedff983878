// Wrong on purpose: padded_64's conflict-free double[32][33] tile, but the dot product is
// accumulated in a float. With small whole numbers every sum is exact in float too, and this kernel
// passed; the double step's data (k * 2^-30, k up to 2^20: products need up to 40 significant
// bits) makes a float accumulator round, so the exact comparison must fail it.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)

__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols) {
  __shared__ double as[TILE_DIM][TILE_DIM];
  __shared__ double bs[TILE_DIM][TILE_DIM + 1];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0;
  bs[y][x] = inside ? b[row * cols + col] : 0.0;
  __syncthreads();
  float sum = 0.0f;  // the mistake: a float accumulator for double data
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
