// Lesson 08_bank_conflicts: write the kernel bodies of the four steps below (conflicted, padded,
// swizzled, padded_64), then run `./build/grader 08_bank_conflicts`.
//
// The task (lessons/08_bank_conflicts/bank_conflicts.cuh and README.md say it in full): A, B and C
// are rows x cols matrices, row-major. Each block owns one 32 x 32 tile position and has 32 x 32
// threads; thread (x, y) = (threadIdx.x, threadIdx.y) computes element (y, x) of the tile product
//
//   C_tile[y][x] = sum over k = 0..31 of A_tile[y][k] * B_tile[x][k]      (A_tile * B_tile^T)
//
// Load both tiles into shared memory (element (y, x) of a tile is a[row * cols + col] with
// row = blockIdx.y * 32 + y, col = blockIdx.x * 32 + x), with 0 for elements outside the matrix;
// __syncthreads(); sum; store when (row, col) is inside the matrix. The launch is in
// lessons/08_bank_conflicts/launch.cu and is not yours to change.
#include "bank_conflicts.cuh"

namespace bank_conflicts {

__global__ void tile_product_conflicted(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int rows, int cols) {
  // TODO(conflicted): two __shared__ float [TILE_DIM][TILE_DIM] tiles, zero-filled outside the
  // matrix; after the barrier, sum as[y][k] * bs[x][k] over k and store it inside the matrix.
}

__global__ void tile_product_padded(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int rows, int cols) {
  // TODO(padded): the conflicted kernel with the B tile shaped so that reading it down a column
  // (lane x at bs[x][k]) touches 32 different banks.
}

__global__ void tile_product_swizzled(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int rows, int cols) {
  // TODO(swizzled): no padding: store element (r, k) of the B tile at bs[r][k ^ r], and read it
  // back from the same place.
}

__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols) {
  // TODO(padded_64): the padded kernel in double. A double covers two banks: work out (README
  // section 6, or ./build/grader banks --width 8) which padding makes the column read of the B
  // tile conflict-free.
}

}  // namespace bank_conflicts
