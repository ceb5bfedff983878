// Wrong on purpose: the unpadded double tile submitted for padded_64. Right, but element (x, k)
// starts at word 64x + 2k, bank 2k % 32 for every lane: the 16 lanes of each half-warp queue on
// the same two banks, 32 wavefronts per B read instead of 2.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)

__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols) {
  __shared__ double as[TILE_DIM][TILE_DIM];
  __shared__ double bs[TILE_DIM][TILE_DIM];  // the missing + 1
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
