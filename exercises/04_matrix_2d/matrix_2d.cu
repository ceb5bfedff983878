// Lesson 04_matrix_2d: write the two kernel bodies below, then run `./build/grader 04_matrix_2d`.
//
// Both compute out(r, c) = a * in(r, c) + b, one element per thread. The launches are in
// lessons/04_matrix_2d/launch.cu and are not yours to change; shapes, layouts and errors are
// documented in lessons/04_matrix_2d/matrix_2d.cuh and README.md.
//
//   both steps: blocks of 32 x 8 threads (blockDim.x = 32, blockDim.y = 8), a grid of
//               ceil(cols / 32) x ceil(rows / 8) blocks: the x dimension is sized for the columns
//   dense:      element (r, c) at in[r * cols + c] and out[r * cols + c]
//   pitched:    row r of `in` starts in_pitch * r BYTES after `in`, row r of `out` out_pitch * r
//               bytes after `out`; the bytes of a row past its cols elements are padding
//
// The blocks on the right and bottom edges are usually partial: check the row and the column
// before every load and store.
#include "matrix_2d.cuh"

namespace matrix_2d {

__global__ void scale_add_dense(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols, float a, float b) {
  // TODO(dense): compute this thread's column c from the x indices (blockIdx.x, blockDim.x,
  // threadIdx.x) and its row r from the y indices; if r < rows and c < cols, write
  // out[r * cols + c] = a * in[r * cols + c] + b.
}

__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b) {
  // TODO(pitched): the same r and c and the same checks. Then find where row r of each matrix
  // starts: the pitch counts BYTES, so step from the base pointer as a char pointer
  // (reinterpret_cast<const char*>(in) + r * in_pitch) and turn the result back into a float
  // pointer; element c of the row is then row[c]. Use out_pitch for out.
}

}  // namespace matrix_2d
