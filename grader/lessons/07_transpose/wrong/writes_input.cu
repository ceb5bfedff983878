// Wrong on purpose: the output is right, but the kernel zeroes each input element after reading
// it. The grader compares the input with a pristine copy after every launch.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  float* writable = const_cast<float*>(in);
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < cols && y + j < rows) {
      out[x * rows + (y + j)] = in[(y + j) * cols + x];
      writable[(y + j) * cols + x] = 0.0f;
    }
  }
}
}  // namespace transpose
