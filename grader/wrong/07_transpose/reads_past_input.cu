// Wrong on purpose: loads before checking bounds and drops the value afterwards. The output is
// right, but on odd shapes the edge threads read past the end of the input. Inside the
// allocation's slack that never faults; compute-sanitizer memcheck must report it.
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
    const float v = in[(y + j) * cols + x];  // read first: past the end for the last rows
    if (x < cols && y + j < rows) out[x * rows + (y + j)] = v;
  }
}
}  // namespace transpose
