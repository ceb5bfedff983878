// Wrong on purpose: the tile loads check the row but not the column. On a right edge tile the
// columns past `cols` are read from the start of the next row (or, on the last row, past the end
// of the input) instead of being 0, so their products pollute every sum of that tile row.
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
  as[y][x] = row < rows ? a[row * cols + col] : 0.0f;  // the missing col < cols
  bs[y][x] = row < rows ? b[row * cols + col] : 0.0f;
  __syncthreads();
  float sum = 0.0f;
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (row < rows && col < cols) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
