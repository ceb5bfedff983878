// Lesson 07_transpose: write the kernel bodies of the three graded steps below (naive, tiled,
// tiled_padded), then run `./build/grader 07_transpose`. Two optional extensions follow at the end
// of the file.
//
// Each block owns a TILE_DIM x TILE_DIM (32 x 32) tile of the input and has TILE_DIM x BLOCK_ROWS
// (32 x 8) threads: a thread moves four elements, at rows y, y + 8, y + 16 and y + 24 of its tile.
// The launch is in lessons/07_transpose/launch.cu and is not yours to change; the shapes, layout
// and steps are documented in lessons/07_transpose/transpose.cuh and README.md.
//
//   in:  rows x cols, row-major, element (r, c) at in[r * cols + c]
//   out: cols x rows, row-major, element (c, r) at out[c * rows + r]
//
// Shapes are not multiples of 32 in general: check bounds before every load and store.
#include "transpose.cuh"

namespace transpose {

__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  // TODO(naive): read in[(y + j) * cols + x] for j = 0, 8, 16, 24 and write it to its transposed
  // place in out. The read is coalesced; the write will not be (that is the next step's job).
}

__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  // TODO(tiled): declare a TILE_DIM x TILE_DIM __shared__ tile, fill it with coalesced reads,
  // __syncthreads(), then write the transposed tile with coalesced writes (swap the block indices,
  // read the shared tile down a column).
}

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  // TODO(tiled_padded): the tiled kernel again, with a shared tile shaped so that reading it down a
  // column touches 32 different banks.
}

}  // namespace transpose

// ---- Optional extensions (Lab 02's extensions, PROFILE.md §5; README section 10); not needed to
// pass the lesson ----

namespace transpose {

__global__ void transpose_tiled_cp_async(const float* __restrict__ in, float* __restrict__ out,
                                         int rows, int cols) {
  // TODO(tiled_cp_async): double-buffer __shared__ float tile[2][TILE_DIM][TILE_DIM + 1]. Walk the
  // tiles (blockIdx.x, blockIdx.y + k * gridDim.y): issue the next tile's loads with
  // __pipeline_memcpy_async (cuda_pipeline.h), one float (4 bytes) per copy, and
  // __pipeline_commit() before storing this one; __pipeline_wait_prior() and __syncthreads() before
  // reading a buffer (the wait covers only this thread's own copies), __syncthreads() before
  // refilling it (README section 10).
}

__global__ void __launch_bounds__(1024, 1)
    transpose_padded_32x32(const float* __restrict__ in, float* __restrict__ out, int rows,
                           int cols) {
  // TODO(padded_32x32): the padded tiled transpose with 32 x 32 threads, one element per thread
  // (no j loop). Then compare its % of the ceiling with tiled_padded's (README section 10,
  // "padded_32x32: the occupancy experiment").
}

}  // namespace transpose
