// Wrong on purpose: remembers the shape of its last launch and returns at once when the same
// shape comes again, as if the input could not have changed. Every correctness test uses a new
// shape and passes; timing repeats one shape, and the re-check on fresh inputs after timing
// must catch the stale output.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)

__device__ int last_rows = -1, last_cols = -1;

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  if (last_rows == rows && last_cols == cols) return;
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  // The last block to start records the shape (blocks that are still running may see it early,
  // which only makes the cheat cruder).
  if (blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && threadIdx.x == 0 &&
      threadIdx.y == 0) {
    last_rows = rows;
    last_cols = cols;
  }
}
}  // namespace transpose
