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
    // Read first, check later. `volatile` keeps the compiler from moving the load under the check,
    // as it would when nothing uses the value before it (real kernels often do use it: a stencil,
    // a reduction).
    const float v = *reinterpret_cast<const volatile float*>(&in[(y + j) * cols + x]);
    if (x < cols && y + j < rows) out[x * rows + (y + j)] = v;
  }
}
}  // namespace transpose
