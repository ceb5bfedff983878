// Wrong on purpose: both matrices addressed with the input's pitch. Right whenever the two
// pitches are equal (two cudaMallocPitch allocations of the same width usually get the same
// pitch); wrong when the output is a view into a wider matrix, with a pitch of its own: row r of
// the result then lands r * (out_pitch - in_pitch) bytes too early, much of it in padding.
#include "unused_kernels.cuh"

namespace matrix_2d {
UNUSED_SCALE_ADD_DENSE

__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;
  const float* in_row =
      reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + r * in_pitch);
  float* out_row = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + r * in_pitch);
  out_row[c] = a * in_row[c] + b;
}
}  // namespace matrix_2d
