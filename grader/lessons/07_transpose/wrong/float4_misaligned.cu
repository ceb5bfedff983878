// Wrong on purpose: each thread of the first 8 lanes loads four consecutive input elements as
// one float4. When cols is not a multiple of 4, rows after the first do not start on a 16-byte
// boundary and the load faults (misaligned address, a sticky error). The grader must report it
// against that shape and still grade the others in a fresh process.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  const int x0 = blockIdx.x * TILE_DIM;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (threadIdx.x < TILE_DIM / 4) {
    const int c = x0 + 4 * threadIdx.x;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
      if (y + j >= rows) continue;
      if (c + 3 < cols) {
        const float4 v = *reinterpret_cast<const float4*>(&in[(y + j) * cols + c]);
        tile[threadIdx.y + j][4 * threadIdx.x + 0] = v.x;
        tile[threadIdx.y + j][4 * threadIdx.x + 1] = v.y;
        tile[threadIdx.y + j][4 * threadIdx.x + 2] = v.z;
        tile[threadIdx.y + j][4 * threadIdx.x + 3] = v.w;
      } else {
        for (int k = 0; k < 4 && c + k < cols; ++k)
          tile[threadIdx.y + j][4 * threadIdx.x + k] = in[(y + j) * cols + c + k];
      }
    }
  }
  __syncthreads();
  const int x = blockIdx.y * TILE_DIM + threadIdx.x;
  const int oy = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < rows && oy + j < cols) out[(oy + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
}  // namespace transpose
