// Wrong on purpose: the naive transpose with a debugging guard left in: a thread outside the
// matrix calls __trap() instead of skipping its element. Every shape with a partial tile stops
// the kernel with cudaErrorLaunchFailure ("unspecified launch failure"), a sticky error; the
// report must name a __trap() (or a failed device assert) as the likely cause.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x >= cols || y + j >= rows) __trap();
    out[x * rows + (y + j)] = in[(y + j) * cols + x];
  }
}
}  // namespace transpose
