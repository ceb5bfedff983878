// The course-owned launches of lesson 01_hello_threads. The hidden tests choose the shapes (odd
// block sizes, sizes that are not multiples of 32, several blocks in every dimension) and pass
// them in; the launchers refuse what the lesson's kernels cannot index and launch the rest as is.
#include <climits>

#include "hello_threads.cuh"

namespace hello_threads {

namespace {

// A shape the kernels can index: no empty dimension, and every global id fits in an int.
bool indexable(dim3 grid, dim3 block) {
  for (unsigned d : {grid.x, grid.y, grid.z, block.x, block.y, block.z})
    if (d < 1) return false;
  const unsigned long long threads = 1ull * grid.x * grid.y * grid.z * block.x * block.y * block.z;
  return threads <= static_cast<unsigned long long>(INT_MAX);
}

}  // namespace

cudaError_t launch_ids_1d(Ids ids, int blocks, int threads_per_block, cudaStream_t stream) {
  if (blocks < 1 || threads_per_block < 1) return cudaErrorInvalidValue;
  if (!indexable(dim3(blocks), dim3(threads_per_block))) return cudaErrorInvalidValue;
  ids_1d<<<blocks, threads_per_block, 0, stream>>>(ids);
  return cudaGetLastError();
}

cudaError_t launch_ids_2d(Ids ids, dim3 grid, dim3 block, cudaStream_t stream) {
  if (grid.z != 1 || block.z != 1 || !indexable(grid, block)) return cudaErrorInvalidValue;
  ids_2d<<<grid, block, 0, stream>>>(ids);
  return cudaGetLastError();
}

cudaError_t launch_ids_3d(Ids ids, dim3 grid, dim3 block, cudaStream_t stream) {
  if (!indexable(grid, block)) return cudaErrorInvalidValue;
  ids_3d<<<grid, block, 0, stream>>>(ids);
  return cudaGetLastError();
}

cudaError_t launch_print_ids(int blocks, int threads_per_block, cudaStream_t stream) {
  if (blocks < 1 || threads_per_block < 1) return cudaErrorInvalidValue;
  if (!indexable(dim3(blocks), dim3(threads_per_block))) return cudaErrorInvalidValue;
  print_ids<<<blocks, threads_per_block, 0, stream>>>();
  return cudaGetLastError();
}

}  // namespace hello_threads
