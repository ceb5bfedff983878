// Wrong on purpose (no cp.async; correct on every shape): the nearest miss of the optional step
// tiled_cp_async. The step's geometry (each block transposes its column of tiles, one tile after
// the other) and the padded tile float[32][33], but each tile is loaded with ordinary loads through
// registers, one tile at a time, with no second buffer: nothing overlaps the next tile's loads with
// this tile's stores except the other resident blocks. The padded tile without cp.async (the
// tiled_padded solution) ran at 99.3% of its copy rung against the cp.async solution's 99.5%
// (calibration.md), so the gate may not see the difference; if it does not, the step needs a check
// other than its speed (calibration.md, "Near misses").
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)
__global__ void __launch_bounds__(1024, 1)
    transpose_padded_32x32(const float* __restrict__, float* __restrict__, int, int) {}

__global__ void transpose_tiled_cp_async(const float* __restrict__ in, float* __restrict__ out,
                                         int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  const int tiles_y = (rows + TILE_DIM - 1) / TILE_DIM;
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  for (int t = blockIdx.y; t < tiles_y; t += gridDim.y) {
    const int y = t * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    const int ox = t * TILE_DIM + threadIdx.x;  // output column = input row
    const int oy = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (ox < rows && oy + j < cols)
        out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
    __syncthreads();  // every thread has read the tile before the next one overwrites it
  }
}
}  // namespace transpose
