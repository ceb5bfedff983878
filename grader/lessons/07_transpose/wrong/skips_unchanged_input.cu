// Wrong on purpose: skips the work when the input's first element is the same as at its last
// launch. Every check on new inputs passes, but while timed (same input over and over) it does
// nothing, and the grader must reject a speed above the copy ceiling as impossible.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__device__ float last_first = 0.0f;
__device__ int launches = 0;

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  __shared__ int skip;
  if (threadIdx.x == 0 && threadIdx.y == 0) skip = launches > 0 && last_first == in[0];
  __syncthreads();
  if (skip) return;
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  if (blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && threadIdx.x == 0 &&
      threadIdx.y == 0) {
    last_first = in[0];
    launches = 1;
  }
}
}  // namespace transpose
