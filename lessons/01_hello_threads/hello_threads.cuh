/// @file hello_threads.cuh
/// @brief Lesson 01_hello_threads: the kernels a student writes and the launchers the course owns.
///
/// Every thread of a launch records who it is. A launch of B blocks of T threads has B * T
/// threads, and every output array has B * T slots, one per thread: the thread whose global id
/// is g writes slot g of every array, and no other slot.
///
/// Definitions (CUDA C++ Programming Guide, "Thread Hierarchy" and "SIMT Architecture"):
/// - The **linear thread index** of a thread in its block, for a block of blockDim = (Dx, Dy, Dz),
///   is t = threadIdx.x + threadIdx.y * Dx + threadIdx.z * Dx * Dy: x varies fastest, then y,
///   then z. In a 1-D block it is threadIdx.x.
/// - The **linear block index** of a block in the grid is, in the same way, b = blockIdx.x +
///   blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y.
/// - The **global id** of a thread is g = b * T + t, where T = Dx * Dy * Dz is the number of
///   threads per block: the threads of block 0 come first, then those of block 1, and so on.
/// - A block is split into **warps** of 32 threads by linear thread index: threads t = 0..31 form
///   warp 0, t = 32..63 warp 1, and so on; the last warp of a block whose T is not a multiple of
///   32 is partly empty. A warp never spans two blocks. The thread's **warp** is t / 32 (its
///   warp's number within its block) and its **lane** is t % 32 (its place in that warp).
///
/// A worked example: blockDim = (8, 4, 1), gridDim = (3, 2, 1), the thread with threadIdx =
/// (5, 3, 0) in the block with blockIdx = (2, 1, 0): t = 5 + 3 * 8 = 29, b = 2 + 1 * 3 = 5,
/// T = 32, g = 5 * 32 + 29 = 189, warp 0, lane 29.
#pragma once

#include <cuda_runtime.h>

/// Lesson 01_hello_threads: kernels (student) and launchers (course).
namespace hello_threads {

/// Threads per warp on every NVIDIA GPU so far (the Programming Guide's table of technical
/// specifications per compute capability; device code can also read the built-in `warpSize`).
constexpr int kWarpSize = 32;

/// Where the threads of a launch record who they are: seven arrays of B * T elements each (B
/// blocks of T threads), device memory. The thread whose global id is g writes element g of
/// every array.
struct Ids {
  uint3* block_idx;   ///< the thread's blockIdx, as is
  uint3* thread_idx;  ///< the thread's threadIdx, as is
  int* block;         ///< its linear block index b (blockIdx.x in a 1-D grid)
  int* thread;        ///< its linear thread index t in the block (threadIdx.x in a 1-D block)
  int* global;        ///< its global id g = b * T + t (the slot it writes)
  int* warp;          ///< its warp within the block, t / 32
  int* lane;          ///< its lane within the warp, t % 32
};

// ---- Kernels the student writes (exercises/01_hello_threads/hello_threads.cu) ----

/// Step `index_1d`: a 1-D grid of 1-D blocks. Every thread fills its slot of the seven arrays.
/// @param ids the output arrays, gridDim.x * blockDim.x elements each
__global__ void ids_1d(Ids ids);

/// Step `index_2d`: a 2-D grid of 2-D blocks (gridDim.z = blockDim.z = 1). Every thread flattens
/// its block and thread indices (x fastest) and fills its slot of the seven arrays.
/// @param ids the output arrays, one element per thread of the grid
__global__ void ids_2d(Ids ids);

/// Step `index_3d`: a 3-D grid of 3-D blocks. The same as ids_2d with z as the slowest
/// dimension. @param ids the output arrays, one element per thread of the grid
__global__ void ids_3d(Ids ids);

/// Step `device_printf`: a 1-D grid of 1-D blocks; every thread prints exactly one line,
/// `block B thread T global G` followed by a newline, with B = blockIdx.x, T = threadIdx.x and G
/// its global id, written in decimal with single spaces (e.g. "block 1 thread 3 global 7").
__global__ void print_ids();

// ---- Launchers the course owns (lessons/01_hello_threads/launch.cu) ----
//
// One launcher per kernel: the kernel on `stream`, with the shape given, no synchronization.
// Each returns cudaSuccess, cudaErrorInvalidValue for a shape it refuses (a dimension < 1, a
// 2-D launch with a z extent other than 1, or more than 2^31 - 1 threads in all, since ids are
// `int`), or the launch error for more than 1024 threads per block or a block or grid dimension
// above the device's limits (blockDim.z <= 64, gridDim.y and gridDim.z <= 65535): the Runtime API
// describes it as cudaErrorInvalidConfiguration; CUDA 13.0 on our H200 returned
// cudaErrorInvalidValue for 1025 threads (docs/measured/H200.md).

/// Launches ids_1d with `blocks` blocks of `threads_per_block` threads.
cudaError_t launch_ids_1d(Ids ids, int blocks, int threads_per_block, cudaStream_t stream = 0);
/// Launches ids_2d with `grid` blocks of `block` threads (grid.z and block.z must be 1).
cudaError_t launch_ids_2d(Ids ids, dim3 grid, dim3 block, cudaStream_t stream = 0);
/// Launches ids_3d with `grid` blocks of `block` threads.
cudaError_t launch_ids_3d(Ids ids, dim3 grid, dim3 block, cudaStream_t stream = 0);
/// Launches print_ids with `blocks` blocks of `threads_per_block` threads. Its lines reach the
/// host's standard output when the host next synchronizes with the device (Programming Guide,
/// "Formatted Output").
cudaError_t launch_print_ids(int blocks, int threads_per_block, cudaStream_t stream = 0);

}  // namespace hello_threads
