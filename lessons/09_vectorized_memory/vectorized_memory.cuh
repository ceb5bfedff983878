/// @file vectorized_memory.cuh
/// @brief Lesson 09_vectorized_memory: the kernels a student writes and the launchers the course
/// owns.
///
/// Step `scale_view`: out[i] = a * in[i] for the n floats of two *views*, pointers into larger
/// allocations that may start at any element (not only on a 16-byte boundary). A float4 load or
/// store needs a 16-byte-aligned address (CUDA C++ Programming Guide, "Device Memory Accesses"),
/// so the kernel splits the view into a scalar *head* (the elements before the first 16-byte
/// boundary), a float4 *body* and a scalar *tail* (the n - head elements that do not fill a whole
/// float4). Precondition, checked by the launcher: `in` and `out` have the same misalignment
/// (their addresses are equal modulo 16 bytes), so one head serves both.
///
/// Step `transpose_64`: the transpose of lesson 07 (in: rows x cols, row-major; out: cols x rows,
/// row-major, element (c, r) at out[c * rows + r]) with 64x64 tiles, 16x16 threads per block,
/// and float4 global loads and stores: each thread moves a 4x4 block of its tile. Precondition,
/// checked by the launcher: rows and cols are multiples of 4 and both pointers 16-byte aligned, so
/// every row starts on a 16-byte boundary and every 4x4 block lies wholly inside or wholly
/// outside the matrix; tiles on the right and bottom edges may still be partial (rows or cols
/// not a multiple of 64).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

/// Lesson 09_vectorized_memory: kernels (student) and launchers (course).
namespace vectorized_memory {

/// Threads per block of scale_view.
constexpr int VIEW_THREADS = 256;
/// float4 vectors of the body each scale_view thread moves.
constexpr int VECTORS_PER_THREAD = 1;

/// Side of the square tile a transpose_64 block owns, in elements.
constexpr int TILE = 64;
/// transpose_64's block is TILE / 4 x TILE / 4 = 16 x 16 threads; thread (x, y) loads the 4x4
/// block at tile rows 4y..4y+3, tile columns 4x..4x+3.
constexpr int TILE_THREADS = TILE / 4;

// ---- Kernels the student writes (exercises/09_vectorized_memory/vectorized_memory.cu) ----

/// Step `scale_view`: out[i] = a * in[i] for 0 <= i < n, float4 wherever the address allows.
///
/// Geometry (launch_scale_view): blocks of VIEW_THREADS threads; with head = the elements of the
/// view before its first 16-byte boundary (0..3, at most n) and body = (n - head) / 4 float4
/// vectors, the grid has max(1, ceil(body / (VIEW_THREADS * VECTORS_PER_THREAD))) blocks. Block b
/// owns the body vectors b * VIEW_THREADS * VECTORS_PER_THREAD + k * VIEW_THREADS + threadIdx.x
/// for k = 0 .. VECTORS_PER_THREAD - 1 (consecutive lanes take consecutive vectors, so a warp
/// reads 512 contiguous bytes per load). The grid always has at least VIEW_THREADS >= 3 threads,
/// enough for one thread per head element and one per tail element.
/// @param in  the input view, device memory, any 4-byte-aligned address
/// @param out the output view: same misalignment as `in` (addresses equal modulo 16 bytes); the
///            views do not overlap. Only out[0..n) may be written: the elements before out[0]
///            and from out[n] on belong to somebody else
/// @param n   elements, >= 0
/// @param a   the scale
__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a);

/// Step `transpose_64`: out (cols x rows) = transpose of in (rows x cols), both row-major.
///
/// Geometry (launch_transpose_64): grid ceil(cols / TILE) x ceil(rows / TILE), block
/// TILE_THREADS x TILE_THREADS; block (bx, by) owns input rows by * TILE .. by * TILE + 63 and
/// columns bx * TILE .. bx * TILE + 63. Every global access is a float4; a 4x4 block outside the
/// matrix (partial edge tiles) must be neither read nor written.
/// @param in   rows x cols input, row-major, device memory, 16-byte aligned
/// @param out  cols x rows output, row-major, device memory, 16-byte aligned
/// @param rows rows of the input, a positive multiple of 4
/// @param cols columns of the input, a positive multiple of 4; rows * cols < 2^31
__global__ void transpose_64(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols);

// ---- Launchers the course owns (lessons/09_vectorized_memory/launch.cu) ----
//
// All alike: the fixed geometry above on `stream`, no synchronization; each returns cudaSuccess,
// cudaErrorInvalidValue for arguments outside the preconditions (nothing is launched then), or
// the launch error.

/// Elements of the view starting at `p` before its first 16-byte boundary: 0 when p is 16-byte
/// aligned, else (16 - p % 16) / 4; never more than n. (The course's launchers use it; the
/// kernel computes the same thing itself.)
int head_elements(const float* p, int n);

/// Launches scale_view. cudaErrorInvalidValue when n < 0, a pointer is null (n > 0) or not
/// 4-byte aligned, or `in` and `out` differ in their address modulo 16 bytes. n = 0 launches
/// nothing and returns cudaSuccess.
cudaError_t launch_scale_view(const float* in, float* out, int n, float a, cudaStream_t stream = 0);

/// Launches transpose_64. cudaErrorInvalidValue when rows or cols is not a positive multiple of
/// 4, rows * cols >= 2^31, ceil(rows / TILE) > 65535 (the largest gridDim.y), or a pointer is null
/// or not 16-byte aligned.
cudaError_t launch_transpose_64(const float* in, float* out, int rows, int cols,
                                cudaStream_t stream = 0);

/// The steps' ceiling (kind "library"): cudaMemcpyAsync device-to-device of the same n floats
/// from `in` to `out`, the copy a professional would call, moving the same bytes (n read + n
/// written) as the student's kernel. cudaErrorInvalidValue when n < 0.
cudaError_t launch_memcpy(const float* in, float* out, long long n, cudaStream_t stream = 0);

}  // namespace vectorized_memory
