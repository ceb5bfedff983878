// Wrong on purpose (slow, not incorrect): the nearest miss of step `tiled`, a transpose without the
// tile in shared memory. The naive kernel turned the other way round: each warp writes 32
// consecutive floats of one output row (coalesced) and reads them down a column of the input (32
// rows, one sector each). The reads go through the read-only path and L1 (`in` is const
// __restrict__), and the block's 8 warps read the 8 neighbouring columns of the same 32 rows at
// the same time, so most of each sector's 32 bytes are used from L1 before it is evicted; the
// strided writes of `naive` have no such cache to help them. Every element right, no shared
// memory, no barrier: the gate must sit above it.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled_padded)

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int r = blockIdx.y * TILE_DIM + threadIdx.x;  // input row = output column
  const int c = blockIdx.x * TILE_DIM + threadIdx.y;  // input column = output row
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (r < rows && c + j < cols) out[(c + j) * rows + r] = in[r * cols + (c + j)];
}
}  // namespace transpose
