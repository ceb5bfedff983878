// Lesson 01_hello_threads: write the bodies of the four kernels below, one per step (index_1d,
// index_2d, index_3d, device_printf), then run `./build/grader 01_hello_threads`.
//
// Every thread records who it is. A launch of B blocks of T threads has B * T threads, and each
// array of `ids` has B * T slots: the thread whose global id is g writes slot g of every array.
//
//   t = linear thread index in the block = threadIdx.x + threadIdx.y * Dx + threadIdx.z * Dx * Dy
//       (blockDim = (Dx, Dy, Dz): x varies fastest)
//   b = linear block index in the grid, the same formula with blockIdx and gridDim
//   g = global id = b * T + t, with T = Dx * Dy * Dz threads per block
//   warp = t / 32, lane = t % 32 (warps are counted inside each block)
//
// The launches are in lessons/01_hello_threads/launch.cu and are not yours to change; the
// definitions, with a worked example, are in lessons/01_hello_threads/hello_threads.cuh and
// README.md.
#include <cstdio>

#include "hello_threads.cuh"

namespace hello_threads {

__global__ void ids_1d(Ids ids) {
  // TODO(index_1d): compute this thread's global id g from blockIdx.x, blockDim.x and
  // threadIdx.x, then write its slot g of all seven arrays: ids.block_idx[g] = blockIdx,
  // ids.thread_idx[g] = threadIdx, then block, thread, global, warp and lane.
}

__global__ void ids_2d(Ids ids) {
  // TODO(index_2d): flatten threadIdx (x fastest) into t and blockIdx into b, then
  // g = b * (threads per block) + t; write slot g of all seven arrays. The warp and lane come
  // from t, not from threadIdx.x.
}

__global__ void ids_3d(Ids ids) {
  // TODO(index_3d): the 2-D kernel with a z dimension, which varies slowest.
}

__global__ void print_ids() {
  // TODO(device_printf): print one line per thread with printf, exactly
  // "block B thread T global G" and a newline (e.g. "block 1 thread 3 global 7").
}

}  // namespace hello_threads
