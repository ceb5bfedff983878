// Wrong on purpose (slow, not incorrect): the nearest conflicted layout to the XOR swizzle.
// Element (r, k) of B is stored at column k ^ (r / 2), and read with the same swizzle, so the
// results are right and the stores stay conflict-free; but lanes 2j and 2j + 1 read the same
// column of two rows, one bank: a 2-way conflict on every B read (2 wavefronts instead of 1).
// The swizzled step's gate must sit above it, and below a conflict-free layout with more index
// arithmetic (a rotation, (k + r) % 32), with a margin on both sides.
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
  as[y][x] = inside ? a[row * cols + col] : 0.0f;
  bs[y][x ^ (y / 2)] = inside ? b[row * cols + col] : 0.0f;  // element (y, x)
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k ^ (x / 2)];  // element (x, k)
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
