// Wrong on purpose (slow, not incorrect): the nearest miss of step `pitched`. Rows are addressed
// by their pitches, both bounds are checked, and every block covers exactly the 32 x 8 elements
// the solution's block covers; but inside the block the row runs fastest: thread
// t = threadIdx.y * 32 + threadIdx.x takes row t % 8 and column t / 8 of the block's area. A warp
// (32 consecutive t) then covers 4 columns of 8 rows instead of 32 columns of one row: each load
// and store touches 8 sectors (16 of each sector's 32 bytes used, one per row) where the solution
// touches 4. Half of every sector is wasted per request, not 7/8 as in `column_walk` (lanes a
// pitch apart, one float per sector); the other half belongs to the block's next warp. The gate
// must sit above it.
#include "unused_kernels.cuh"

namespace matrix_2d {
UNUSED_SCALE_ADD_DENSE

__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  const int t = threadIdx.y * blockDim.x + threadIdx.x;  // 0 .. 255
  const int r = blockIdx.y * blockDim.y + t % BLOCK_Y;
  const int c = blockIdx.x * blockDim.x + t / BLOCK_Y;
  if (r >= rows || c >= cols) return;
  const float* in_row =
      reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + r * in_pitch);
  float* out_row = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + r * out_pitch);
  out_row[c] = a * in_row[c] + b;
}
}  // namespace matrix_2d
