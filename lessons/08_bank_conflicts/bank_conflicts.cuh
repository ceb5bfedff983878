/// @file bank_conflicts.cuh
/// @brief Lesson 08_bank_conflicts: the kernels a student writes and the launchers the course owns.
///
/// The task (every step computes it; only the shared-memory layout changes). Two inputs A and B
/// are `rows` x `cols` matrices, row-major (element (r, c) at `a[r * cols + c]`). Cut both into
/// TILE_DIM x TILE_DIM tiles; the tile at tile row `ty`, tile column `tx` covers rows
/// 32 ty .. 32 ty + 31 and columns 32 tx .. 32 tx + 31. For each tile position, the output C (also
/// `rows` x `cols`, row-major) holds the product of the A tile with the transpose of the B tile at
/// the same position:
///
///     C[32 ty + i][32 tx + j] = sum over k = 0..31 of  A~[32 ty + i][32 tx + k] * B~[32 ty + j][32
///     tx + k]
///
/// where A~ and B~ are A and B extended with zeros outside the matrix (so an edge tile behaves as
/// a 32 x 32 tile whose missing elements are 0). Every output element inside the matrix
/// (`32 ty + i < rows`, `32 tx + j < cols`) is written; nothing outside it is. Note that j is a
/// column of C but a ROW of the B tile: on a bottom edge tile, B rows past `rows` contribute 0.
/// Inputs and output never overlap.
///
/// Geometry (fixed by the course): one block per tile position, TILE_DIM x BLOCK_ROWS threads;
/// grid ceil(cols / TILE_DIM) x ceil(rows / TILE_DIM). Thread (x, y) of block (bx, by) computes
/// output element (i, j) = (y, x) of its tile (BLOCK_ROWS = TILE_DIM: one element per thread), so
/// lane j of a warp walks row j of the B tile while every lane of the warp reads the same A
/// element: the B tile is read DOWN A COLUMN (lane j at B_tile[j][k]) and A is a broadcast. That
/// column read is the lesson's bank-conflict pattern. Per output element: 32 shared loads of A,
/// 32 of B and 32 fused multiply-adds; per tile, 12 KiB (float) of DRAM traffic: the kernels are
/// bound by shared memory, not by DRAM, once the column read is conflicted.
///
/// Values: the tests use small whole numbers (|v| <= 16), so every product and every partial sum
/// is exact in float and double in any order, and results are compared bit for bit.
#pragma once

#include <cuda_runtime.h>

/// Lesson 08_bank_conflicts: kernels (student) and launchers (course).
namespace bank_conflicts {

/// Side of the square tile a block owns, in elements.
constexpr int TILE_DIM = 32;
/// threadIdx.y extent: TILE_DIM, one output element per thread.
constexpr int BLOCK_ROWS = 32;

// ---- Kernels the student writes (exercises/08_bank_conflicts/bank_conflicts.cu) ----

/// Step `conflicted`: the tile product with both tiles in `__shared__ float [32][32]` arrays.
/// Correct, and 32-way bank-conflicted on every read of the B tile (a column).
/// @param a    rows x cols input A, row-major, device memory
/// @param b    rows x cols input B, row-major, device memory
/// @param c    rows x cols output C, row-major, device memory (see the file comment)
/// @param rows rows of A, B and C, >= 1
/// @param cols columns of A, B and C, >= 1; rows * cols < 2^31
__global__ void tile_product_conflicted(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int rows, int cols);

/// Step `padded`: the B tile in a `[32][33]` array, so a column read touches 32 banks.
/// Same parameters as tile_product_conflicted.
__global__ void tile_product_padded(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int rows, int cols);

/// Step `swizzled`: no padding; element (r, k) of the B tile is stored at column k ^ r of a
/// `[32][32]` array and read back with the same swizzle. Same parameters as
/// tile_product_conflicted.
__global__ void tile_product_swizzled(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int rows, int cols);

/// Step `padded_64`: the tile product in double (8-byte elements cover two banks each), with
/// the B tile padded so that its column read is conflict-free (README section 6). Same shapes as
/// tile_product_conflicted.
__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols);

// ---- Launchers the course owns (lessons/08_bank_conflicts/launch.cu) ----
//
// One launcher per kernel, all alike: grid ceil(cols / TILE_DIM) x ceil(rows / TILE_DIM), block
// TILE_DIM x BLOCK_ROWS, on `stream`, no synchronization. Each returns cudaSuccess,
// cudaErrorInvalidValue when a pointer is null, rows or cols is < 1, rows * cols >= 2^31
// (indices are `int`) or ceil(rows / TILE_DIM) > 65535 (the largest gridDim.y), or the launch
// error.

/// Launches tile_product_conflicted.
cudaError_t launch_tile_product_conflicted(const float* a, const float* b, float* c, int rows,
                                           int cols, cudaStream_t stream = 0);
/// Launches tile_product_padded.
cudaError_t launch_tile_product_padded(const float* a, const float* b, float* c, int rows, int cols,
                                       cudaStream_t stream = 0);
/// Launches tile_product_swizzled.
cudaError_t launch_tile_product_swizzled(const float* a, const float* b, float* c, int rows,
                                         int cols, cudaStream_t stream = 0);
/// Launches tile_product_padded_64.
cudaError_t launch_tile_product_padded_64(const double* a, const double* b, double* c, int rows,
                                          int cols, cudaStream_t stream = 0);

/// The lesson's ceiling for the float steps (the "rung"): the same grid, block, tile loads, 64
/// shared loads and 32 FMAs per output element, with the B tile read ALONG A ROW (lane j at
/// B_tile[k][j]) instead of down a column, so no read conflicts whatever the layout. It computes
/// C_tile = A_tile * B_tile, not A_tile * B_tile^T: its values are for timing only.
cudaError_t launch_tile_product_rows(const float* a, const float* b, float* c, int rows, int cols,
                                     cudaStream_t stream = 0);
/// The same rung in double: the ceiling of step `padded_64`.
cudaError_t launch_tile_product_rows_64(const double* a, const double* b, double* c, int rows,
                                        int cols, cudaStream_t stream = 0);

}  // namespace bank_conflicts
