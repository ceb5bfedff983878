// Wrong on purpose: every write lands 2^40 bytes past the output, outside any allocation. The
// first launch raises an illegal-address error that poisons the CUDA context; the grader must
// report it and run the remaining tests in fresh processes.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  float* far = out + (1ll << 40) / sizeof(float);
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < cols && y + j < rows) far[x * rows + (y + j)] = in[(y + j) * cols + x];
}
}  // namespace transpose
