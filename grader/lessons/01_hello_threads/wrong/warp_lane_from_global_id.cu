// Wrong on purpose: warp and lane counted from the global id, as if warps ran on across block
// boundaries. Right in block 0 only; in the other blocks the warp is off, and so is the lane when
// blockDim.x is not a multiple of 32.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_2d)
UNUSED_IDS_KERNEL(ids_3d)
UNUSED_PRINT_KERNEL

__global__ void ids_1d(Ids ids) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  ids.block_idx[g] = blockIdx;
  ids.thread_idx[g] = threadIdx;
  ids.block[g] = blockIdx.x;
  ids.thread[g] = threadIdx.x;
  ids.global[g] = g;
  ids.warp[g] = g / 32;  // should be threadIdx.x / 32
  ids.lane[g] = g % 32;  // should be threadIdx.x % 32
}
}  // namespace hello_threads
