// Wrong on purpose, and correct: threadIdx.x walks down a column. The row comes from the x
// indices and the column from the y indices; grid-stride loops in both directions (lesson 03)
// cover every shape under the course's launch, whose grid is sized for x along the columns. The
// 32 lanes of a warp then read and write one column of 32 rows: 32 sectors per request, each a
// pitch apart, for 128 useful bytes. Must fail the pitched gate. (The block's 8 warps take 8
// neighbouring columns, so together they use each sector's 32 bytes; the caches may recover part
// of the reads, but every warp request still costs 32 sectors.)
#include "unused_kernels.cuh"

namespace matrix_2d {
UNUSED_SCALE_ADD_DENSE

__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
    const float* in_row =
        reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + r * in_pitch);
    float* out_row = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + r * out_pitch);
    for (int c = blockIdx.y * blockDim.y + threadIdx.y; c < cols; c += gridDim.y * blockDim.y)
      out_row[c] = a * in_row[c] + b;
  }
}
}  // namespace matrix_2d
