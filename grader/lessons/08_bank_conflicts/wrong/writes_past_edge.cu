// Wrong on purpose: the store has no bounds check. Every thread of an edge tile stores its sum:
// columns past `cols` land in the next row, rows past `rows` past the end of c, where the guard
// elements after the output must catch them.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)
UNUSED_DOUBLE_KERNEL(tile_product_padded_64)

__global__ void tile_product_padded(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM + 1];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0f;
  bs[y][x] = inside ? b[row * cols + col] : 0.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  c[row * cols + col] = sum;  // no check: (row, col) may be outside the matrix
}
}  // namespace bank_conflicts
