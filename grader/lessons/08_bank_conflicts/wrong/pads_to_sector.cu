// Wrong on purpose: double bs[32][36], rows padded to 288 bytes, a multiple of the 32-byte sector
// (a global-memory habit that means nothing to shared memory). A row is 72 words, so element
// (x, k) starts at bank (8x + 2k) % 32: lanes 4 apart collide, a 4-way conflict in each half-warp,
// 8 wavefronts per B read instead of 2. Right, and measurably slower on our H200 (the probe,
// tools/probes/08_calibrate.cu), where a 2-way conflict ([32][34]) was not.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)

__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols) {
  __shared__ double as[TILE_DIM][TILE_DIM];
  __shared__ double bs[TILE_DIM][TILE_DIM + 4];  // rows of 288 B: sector-aligned, 4-way
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0;
  bs[y][x] = inside ? b[row * cols + col] : 0.0;
  __syncthreads();
  double sum = 0;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}
}  // namespace bank_conflicts
