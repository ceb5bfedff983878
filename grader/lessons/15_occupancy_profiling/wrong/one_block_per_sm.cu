// Wrong on purpose (caps occupancy): the largest block, 1,024 threads, as if more threads per
// block were always better. Its 135,168 bytes of dynamic shared memory leave room for one block
// per SM (an H200 has 228 KiB per SM): 1,024 of 2,048 threads, 50%.
#include "unused_kernels.cuh"

namespace occupancy_profiling {
SOLUTION_MIX_CHANNELS

cudaError_t choose_block_size(int* block_threads) {
  *block_threads = 1024;
  return cudaSuccess;
}
}  // namespace occupancy_profiling
