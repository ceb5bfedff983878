/// @file transpose.cuh
/// @brief Lesson 07_transpose: the kernels a student writes and the launchers the course owns.
///
/// Layout: the input is a `rows` x `cols` matrix of `float`, row-major (element (r, c) at
/// `in[r * cols + c]`). The output is its transpose, a `cols` x `rows` matrix, row-major
/// (element (c, r) at `out[c * rows + r]`). Input and output never overlap.
///
/// Geometry (fixed by the course, as in NVIDIA's classic transpose write-up): each block owns a
/// TILE_DIM x TILE_DIM tile of the input and has TILE_DIM x BLOCK_ROWS threads, so each thread
/// moves TILE_DIM / BLOCK_ROWS = 4 elements, at rows y, y + 8, y + 16 and y + 24 of the tile.
/// The grid is ceil(cols / TILE_DIM) x ceil(rows / TILE_DIM) blocks. Tiles on the right and
/// bottom edges may be partial: every kernel must check bounds.
#pragma once

#include <cuda_runtime.h>

/// Lesson 07_transpose: kernels (student) and launchers (course).
namespace transpose {

/// Side of the square tile a block owns, in elements.
constexpr int TILE_DIM = 32;
/// threadIdx.y extent: each thread handles TILE_DIM / BLOCK_ROWS rows of its tile.
constexpr int BLOCK_ROWS = 8;

/// Tiles one block of the cp.async extension transposes, one after the other down its column of
/// tiles (so the next tile's load can overlap this tile's store).
constexpr int TILES_PER_BLOCK = 4;

// ---- Kernels the student writes (exercises/07_transpose/transpose.cu) ----

/// Step `naive`: one global access coalesced (the read), the other strided (the write).
/// @param in   rows x cols input, row-major, device memory
/// @param out  cols x rows output, row-major, device memory
/// @param rows rows of the input (= columns of the output), >= 1
/// @param cols columns of the input (= rows of the output), >= 1; rows * cols < 2^31
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols);

/// Step `tiled`: reads and writes coalesced; the tile turns in a TILE_DIM x TILE_DIM shared array.
/// Same parameters as transpose_naive.
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols);

/// Step `tiled_padded`: the tiled kernel with a TILE_DIM x (TILE_DIM + 1) shared array, so the
/// column-wise read of the tile hits 32 different banks. Same parameters as transpose_naive.
__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols);

/// Extension `tiled_cp_async` (compute capability 8.0+; older GPUs run a synchronous fallback and
/// the grader skips the step): the padded tiled transpose with the tile loaded by cp.async into
/// one of two shared buffers (__shared__ float tile[2][TILE_DIM][TILE_DIM + 1]). Geometry:
/// TILE_DIM x BLOCK_ROWS threads; grid ceil(cols / TILE_DIM) x ceil(ceil(rows / TILE_DIM) /
/// TILES_PER_BLOCK); block (bx, by) transposes the tiles (bx, by), (bx, by + gridDim.y), ... so
/// it can start loading the next tile before it stores this one. Same parameters as
/// transpose_naive.
__global__ void transpose_tiled_cp_async(const float* __restrict__ in, float* __restrict__ out,
                                         int rows, int cols);

/// Extension `padded_32x32` (an occupancy experiment, not gated): the padded tiled transpose
/// with TILE_DIM x TILE_DIM = 1024 threads per block, one element per thread, compiled under
/// __launch_bounds__(1024, 1), which the definition carries (the stub has it). Compare its % of the
/// ceiling with tiled_padded's and explain it with registers per thread (`-Xptxas -v` through the
/// course's CMake build: WARMUP.md section 8.6) and achieved occupancy.
/// Same parameters as transpose_naive.
__global__ void transpose_padded_32x32(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols);

// ---- Launchers the course owns (lessons/07_transpose/launch.cu) ----
//
// One launcher per kernel, all alike: the fixed geometry above on `stream`, no synchronization.
// Each returns cudaSuccess, cudaErrorInvalidValue when rows or cols is < 1, rows * cols >= 2^31
// (indices are `int`) or ceil(rows / TILE_DIM) > 65535 (the largest gridDim.y), or the launch
// error.

/// Launches transpose_naive: grid ceil(cols / TILE_DIM) x ceil(rows / TILE_DIM), block
/// TILE_DIM x BLOCK_ROWS.
cudaError_t launch_transpose_naive(const float* in, float* out, int rows, int cols,
                                   cudaStream_t stream = 0);
/// Launches transpose_tiled with the geometry of launch_transpose_naive.
cudaError_t launch_transpose_tiled(const float* in, float* out, int rows, int cols,
                                   cudaStream_t stream = 0);
/// Launches transpose_tiled_padded with the geometry of launch_transpose_naive.
cudaError_t launch_transpose_tiled_padded(const float* in, float* out, int rows, int cols,
                                          cudaStream_t stream = 0);
/// Launches transpose_tiled_cp_async: grid ceil(cols / TILE_DIM) x
/// ceil(ceil(rows / TILE_DIM) / TILES_PER_BLOCK), block TILE_DIM x BLOCK_ROWS.
cudaError_t launch_transpose_tiled_cp_async(const float* in, float* out, int rows, int cols,
                                            cudaStream_t stream = 0);
/// Launches transpose_padded_32x32: the grid of launch_transpose_naive, block TILE_DIM x TILE_DIM.
cudaError_t launch_transpose_padded_32x32(const float* in, float* out, int rows, int cols,
                                          cudaStream_t stream = 0);

/// The lesson's bandwidth ceiling ("copy rung"): copies the rows x cols input to a rows x cols
/// output with exactly the transpose's geometry and bounds checks, but no transpose, so the only
/// difference it measures is the access pattern.
cudaError_t launch_copy_tiled(const float* in, float* out, int rows, int cols,
                              cudaStream_t stream = 0);

}  // namespace transpose
