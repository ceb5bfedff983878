/// @file grid_stride.cuh
/// @brief Lesson 03_grid_stride: the kernel a student writes and the launchers the course owns.
///
/// SAXPY, y = a * x + y, written so that it does not assume one thread per element: each thread
/// starts at its global index and steps through the array by the number of threads in the whole
/// grid (a *grid-stride loop*), so any grid, from one block to one thread per element, updates
/// every element exactly once.
///
/// - step `grid_stride`: the loop, graded under four grids the course picks for every size: one
///   block, three blocks, BLOCKS_PER_SM blocks per streaming multiprocessor (SM) of this GPU, and
///   the full grid of ceil(n / BLOCK_THREADS) blocks. Timed on the BLOCKS_PER_SM x SMs grid
///   against copy_grid_stride, a copy with the same grid and loop.
/// - step `large`: the same kernel on n = 2^31 + 17 elements, past the largest `int`
///   (2^31 - 1), so an index or stride held or computed in 32 bits wraps. Skipped, with the
///   reason, on GPUs without the memory (about 24.5 GiB of GPU memory: the arrays and the
///   expected result stay on the GPU; see the README).
///
/// Every launch is course-owned (lessons/03_grid_stride/launch.cu): the student writes the kernel
/// body only, and the tests choose the grid.
///
/// Units: n is an element count, `long long` because this lesson goes past 2^31 elements;
/// pointers are device pointers to `float`; `x` and `y` never overlap.
#pragma once

#include <cuda_runtime.h>

/// Lesson 03_grid_stride: kernel (student) and launchers (course).
namespace grid_stride {

/// Threads per block of every launch of this lesson (8 warps).
constexpr int BLOCK_THREADS = 256;
/// Blocks per SM of the grid the speed test uses (BLOCKS_PER_SM x the SM count of the GPU).
constexpr int BLOCKS_PER_SM = 4;

// ---- The kernel the student writes (exercises/03_grid_stride/grid_stride.cu) ----

/// Steps `grid_stride` and `large`: y[i] = a * x[i] + y[i] for every i < n, in place.
///
/// Launch: BLOCK_THREADS threads per block and any number of blocks (the caller's choice, from 1
/// to 2^31 - 1), so the grid may have fewer threads than n, or more. Each element must be updated
/// exactly once, by exactly one thread. Indices reach n - 1 >= 2^31 in step `large`: hold them,
/// and the stride blockDim.x * gridDim.x, in 64-bit integers. The product a * x[i] may be fused
/// with the add (one rounding) or not; the tests use a power of two for `a`, so both round alike.
/// @param n number of elements, >= 1 (up to 2^31 + 17 in the tests)
/// @param a scale factor
/// @param x n floats, device memory, read only
/// @param y n floats, device memory, read and written; does not overlap `x`
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y);

// ---- Launchers and helpers the course owns (lessons/03_grid_stride/launch.cu) ----
// Launchers are asynchronous on `stream` and return cudaSuccess, cudaErrorInvalidValue when an
// argument is outside the documented range (nothing is launched then), or the launch error.

/// Launches the student's saxpy on `blocks` blocks of BLOCK_THREADS threads.
/// @param n      number of elements, >= 1
/// @param a      scale factor
/// @param x      n floats, device memory
/// @param y      n floats, device memory, updated in place
/// @param blocks grid size, >= 1 (gridDim.x may be at most 2^31 - 1, the largest int)
/// @param stream stream of the launch
/// @return cudaErrorInvalidValue when n < 1 or blocks < 1
cudaError_t launch_saxpy(long long n, float a, const float* x, float* y, int blocks,
                         cudaStream_t stream = 0);

/// Ceiling of step `grid_stride` (kernel `copy_grid_stride`): the same grid, block and 64-bit
/// grid-stride loop as the solution, moving the same 12 bytes per element (reads x[i] and y[i],
/// writes y[i]) with no floating-point work: y[i] becomes the bits of y[i] XOR the bits of x[i].
/// Running it twice restores y. Its values are bit patterns, not SAXPY: use it for timing only.
/// Arguments and errors as launch_saxpy.
cudaError_t launch_copy_grid_stride(long long n, const float* x, float* y, int blocks,
                                    cudaStream_t stream = 0);

/// The SM count of the current device (cudaDevAttrMultiProcessorCount), as the lesson queries it.
/// @param[out] count streaming multiprocessors, e.g. 132 on an H200
/// @return the error of cudaGetDevice or cudaDeviceGetAttribute (count is then unchanged)
cudaError_t multiprocessor_count(int* count);

/// Blocks of the full grid, one thread per element: ceil(n / BLOCK_THREADS); 0 for n < 1.
constexpr long long full_grid_blocks(long long n) {
  return n < 1 ? 0 : (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
}

}  // namespace grid_stride
