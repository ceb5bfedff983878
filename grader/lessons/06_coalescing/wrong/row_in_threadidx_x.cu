// Wrong on purpose: the swapped row/column bug. threadIdx.x (and blockIdx.x) index the rows,
// threadIdx.y (and blockIdx.y) the columns, so the 32 lanes of a warp read and write one column
// of 32 rows: 32 sectors, cols * 4 bytes apart, for 128 useful bytes. Grid-stride loops in both
// directions keep it correct for every shape under the course's fixed launch (whose grid is sized
// for threadIdx.x along the columns). Must fail the row_major_2d gate.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_CHANNELS
UNUSED_UPDATE_SOA

__global__ void scale_matrix(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols, float s) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x)
    for (int c = blockIdx.y * blockDim.y + threadIdx.y; c < cols; c += gridDim.y * blockDim.y)
      out[r * cols + c] = in[r * cols + c] * s;
}
}  // namespace coalescing
