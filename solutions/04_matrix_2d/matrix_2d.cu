// Lesson 04_matrix_2d, completed. One element per thread on a 2-D grid: the column comes from the
// x indices and the row from the y indices, so the 32 lanes of a warp (consecutive threadIdx.x,
// same threadIdx.y) cover 32 neighbouring elements of one row.
#include "matrix_2d.cuh"

namespace matrix_2d {

// The launch has ceil(cols / 32) x ceil(rows / 8) blocks: x is sized for the columns. Taking the
// row from x instead would leave a strip of a non-square matrix unwritten (and, where it covers
// the matrix, put each lane of a warp in a different row).
__global__ void scale_add_dense(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols, float a, float b) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  // Both checks: the last block column and the last block row are usually partial.
  if (r < rows && c < cols) out[r * cols + c] = a * in[r * cols + c] + b;
}

// A pitched row is `pitch` BYTES long, not `cols` elements: find the row's start through a
// char pointer, then index the element within it. Each pointer has its own pitch.
__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= cols) return;  // also keeps every access out of the padding
  const float* in_row = reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) +
                                                       r * in_pitch);  // size_t: no overflow
  float* out_row = reinterpret_cast<float*>(reinterpret_cast<char*>(out) + r * out_pitch);
  out_row[c] = a * in_row[c] + b;  // one fused multiply-add with nvcc's default -fmad=true
}

}  // namespace matrix_2d
