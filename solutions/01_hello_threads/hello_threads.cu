// Lesson 01_hello_threads, completed. Each kernel is the same idea at a higher dimension: flatten
// the thread's position in its block and its block's position in the grid, x fastest, and derive
// everything else (global id, warp, lane) from those two numbers.
#include <cstdio>

#include "hello_threads.cuh"

namespace hello_threads {

namespace {

// Writes everything a thread knows about itself into its own slot. The slot is the global id:
// every thread of the grid has a different one, so no two threads write the same element.
__device__ void record(const Ids& ids, int b, int t, int threads_per_block) {
  const int g = b * threads_per_block + t;
  ids.block_idx[g] = blockIdx;
  ids.thread_idx[g] = threadIdx;
  ids.block[g] = b;
  ids.thread[g] = t;
  ids.global[g] = g;
  // Warps are cut from the linear thread index of the block, 32 consecutive threads each, so the
  // warp and the lane come from t: never from threadIdx.x alone (wrong in a 2-D block), nor from
  // g (a warp never spans two blocks, and T need not be a multiple of 32).
  ids.warp[g] = t / warpSize;
  ids.lane[g] = t % warpSize;
}

}  // namespace

__global__ void ids_1d(Ids ids) {
  // In one dimension the linear indices are the indices themselves; blockIdx.x * blockDim.x
  // counts the threads of the blocks before this one.
  record(ids, blockIdx.x, threadIdx.x, blockDim.x);
}

__global__ void ids_2d(Ids ids) {
  // x varies fastest: a row of blockDim.x threads, then the next row (Programming Guide, "Thread
  // Hierarchy"). The same rule numbers the blocks of the grid.
  const int t = threadIdx.x + threadIdx.y * blockDim.x;
  const int b = blockIdx.x + blockIdx.y * gridDim.x;
  record(ids, b, t, blockDim.x * blockDim.y);
}

__global__ void ids_3d(Ids ids) {
  // z is the slowest dimension: a whole x-y plane of the block before the next value of z.
  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  record(ids, b, t, blockDim.x * blockDim.y * blockDim.z);
}

__global__ void print_ids() {
  // Every thread runs this printf, so a launch prints one line per thread. The lines reach the
  // host when it synchronizes, and nothing orders them between blocks.
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  printf("block %d thread %d global %d\n", static_cast<int>(blockIdx.x),
         static_cast<int>(threadIdx.x), g);
}

}  // namespace hello_threads
