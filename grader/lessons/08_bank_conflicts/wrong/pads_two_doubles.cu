// Wrong on purpose: double bs[32][34]. A row is 68 words, so element (x, k) starts at bank
// (4x + 2k) % 32: lanes x and x + 8 of a half-warp share a bank pair, a 2-way conflict, 4
// wavefronts per B read instead of 2. Right, and slower than the odd padding.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)

__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols) {
  __shared__ double as[TILE_DIM][TILE_DIM];
  __shared__ double bs[TILE_DIM][TILE_DIM + 2];  // 'a double is two banks, so pad by two'
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : double(0);
  bs[y][x] = inside ? b[row * cols + col] : 0.0;
  __syncthreads();
  double sum = 0;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
