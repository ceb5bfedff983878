// Wrong on purpose: the pitch, a count of BYTES, used as a count of floats. `in + r * in_pitch`
// on a float pointer moves r * in_pitch * 4 bytes, so row r lands where row 4r belongs and every
// row r >= rows / 4 lands past the last row. The hidden tests' guard rows (3 per data row for
// 4-byte elements) keep those writes inside the allocation, where they are seen; without guard
// rows (under compute-sanitizer) they are out of bounds.
#include "unused_kernels.cuh"

namespace matrix_2d {
UNUSED_SCALE_ADD_DENSE

__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * out_pitch + c] = a * in[r * in_pitch + c] + b;
}
}  // namespace matrix_2d
