// Wrong on purpose: the global id is threadIdx.x alone. Every block writes the slots 0 ..
// blockDim.x - 1 (which block's values survive is a race), and the slots of blocks 1 and up stay
// poisoned. Right only for a single block.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_2d)
UNUSED_IDS_KERNEL(ids_3d)
UNUSED_PRINT_KERNEL

__global__ void ids_1d(Ids ids) {
  const int g = threadIdx.x;  // should count the blocks before this one too
  ids.block_idx[g] = blockIdx;
  ids.thread_idx[g] = threadIdx;
  ids.block[g] = blockIdx.x;
  ids.thread[g] = threadIdx.x;
  ids.global[g] = g;
  ids.warp[g] = threadIdx.x / 32;
  ids.lane[g] = threadIdx.x % 32;
}
}  // namespace hello_threads
