// Wrong on purpose (slow, not incorrect): the nearest miss of step row_major_2d. Each block covers
// exactly the 32 x 8 elements the solution's block covers, with both bounds checked; but inside the
// block the row runs fastest: thread t = threadIdx.y * 32 + threadIdx.x takes row t % 8 and column
// t / 8 of the block's area. A warp (32 consecutive t) covers 4 columns of 8 rows instead of 32
// columns of one row, so each load and store touches 8 sectors and uses 16 bytes of each (half of
// every sector wasted per request; `row_in_threadidx_x` wastes 7/8, lanes a whole row apart). The
// other half of each sector belongs to the block's next warp. The gate must sit above it.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_CHANNELS
UNUSED_UPDATE_SOA

__global__ void scale_matrix(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols, float s) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;  // 0 .. 255
  const int r = blockIdx.y * blockDim.y + t % BLOCK_Y;
  const int c = blockIdx.x * blockDim.x + t / BLOCK_Y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c] * s;
}
}  // namespace coalescing
