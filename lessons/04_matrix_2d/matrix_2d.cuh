/// @file matrix_2d.cuh
/// @brief Lesson 04_matrix_2d: the kernels a student writes and the launchers the course owns.
///
/// Both kernels compute the same element-wise operation on a rows x cols matrix of `float`,
///
///     out(r, c) = a * in(r, c) + b     for every row r < rows and column c < cols,
///
/// on a 2-D grid of 2-D blocks, one element per thread:
///
/// - step `dense`: the matrix is dense and row-major, element (r, c) at `in[r * cols + c]`.
/// - step `pitched`: each matrix comes from cudaMallocPitch, so its rows are `pitch` bytes apart
///   (pitch >= cols * sizeof(float)); element (r, c) is at
///   `(const char*)in + r * in_pitch + c * sizeof(float)`. The bytes of a row past its last
///   element (the padding) belong to no element: never read or write them.
///
/// Geometry (fixed by the course's launchers): blocks of BLOCK_X x BLOCK_Y = 32 x 8 threads, a
/// grid of ceil(cols / BLOCK_X) x ceil(rows / BLOCK_Y) blocks. The x indices (threadIdx.x,
/// blockIdx.x) are sized to run along a row, over the columns; the y indices over the rows. The
/// blocks on the right and bottom edges are partial: check both indices before touching memory.
///
/// The result may be computed with one fused multiply-add (fmaf(a, x, b), what nvcc makes of
/// `a * x + b` by default) or with a multiply and an add rounded separately: the tests accept
/// either rounding. Input and output never overlap.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

/// Lesson 04_matrix_2d: kernels (student) and launchers (course).
namespace matrix_2d {

/// threadIdx.x extent: one warp spans 32 neighbouring columns of one row.
constexpr int BLOCK_X = 32;
/// threadIdx.y extent: 8 rows per block, 256 threads in all.
constexpr int BLOCK_Y = 8;
/// Largest row count the launchers accept: gridDim.y is at most 65535 blocks of BLOCK_Y rows.
constexpr int MAX_ROWS = 65535 * BLOCK_Y;

// ---- Kernels the student writes (exercises/04_matrix_2d/matrix_2d.cu) ----

/// Step `dense`: out[r * cols + c] = a * in[r * cols + c] + b for every r < rows, c < cols.
/// @param in   rows x cols input, dense row-major, device memory
/// @param out  rows x cols output, dense row-major, device memory
/// @param rows rows, 1 .. MAX_ROWS
/// @param cols columns (elements per row), >= 1; rows * cols < 2^31
/// @param a    scale
/// @param b    offset
__global__ void scale_add_dense(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols, float a, float b);

/// Step `pitched`: out(r, c) = a * in(r, c) + b for every r < rows, c < cols, where row r of a
/// pitched matrix starts `r * pitch` BYTES after its first row.
/// @param in        rows x cols input, device memory from cudaMallocPitch (row 0 at `in`)
/// @param in_pitch  bytes from one row of `in` to the next, >= cols * sizeof(float), a multiple
///                  of sizeof(float)
/// @param out       rows x cols output, device memory from cudaMallocPitch
/// @param out_pitch bytes from one row of `out` to the next (may differ from in_pitch), same
///                  rules as in_pitch
/// @param rows      rows, 1 .. MAX_ROWS
/// @param cols      columns, >= 1
/// @param a         scale
/// @param b         offset
__global__ void scale_add_pitched(const float* __restrict__ in, std::size_t in_pitch,
                                  float* __restrict__ out, std::size_t out_pitch, int rows,
                                  int cols, float a, float b);

// ---- Launchers the course owns (lessons/04_matrix_2d/launch.cu) ----
// Asynchronous on `stream`, no synchronization. Each returns cudaSuccess, cudaErrorInvalidValue
// when a size or pitch is outside the documented range (nothing is launched then), or the launch
// error from cudaGetLastError().

/// Launches scale_add_dense: grid ceil(cols / BLOCK_X) x ceil(rows / BLOCK_Y), block
/// BLOCK_X x BLOCK_Y.
/// @return cudaErrorInvalidValue when rows or cols < 1, rows > MAX_ROWS or rows * cols >= 2^31
cudaError_t launch_scale_add_dense(const float* in, float* out, int rows, int cols, float a,
                                   float b, cudaStream_t stream = 0);

/// Launches scale_add_pitched with the geometry of launch_scale_add_dense.
/// @return cudaErrorInvalidValue when rows or cols < 1, rows > MAX_ROWS, or a pitch is below
///         cols * sizeof(float) or not a multiple of sizeof(float)
cudaError_t launch_scale_add_pitched(const float* in, std::size_t in_pitch, float* out,
                                     std::size_t out_pitch, int rows, int cols, float a, float b,
                                     cudaStream_t stream = 0);

/// The `pitched` step's ceiling, its copy rung: out(r, c) = in(r, c) with exactly
/// scale_add_pitched's grid, block, row addressing by the pitch and bounds checks, no arithmetic.
/// Moves the same 2 * rows * cols * 4 bytes. Errors as launch_scale_add_pitched.
cudaError_t launch_copy_pitched(const float* in, std::size_t in_pitch, float* out,
                                std::size_t out_pitch, int rows, int cols, cudaStream_t stream = 0);

}  // namespace matrix_2d
