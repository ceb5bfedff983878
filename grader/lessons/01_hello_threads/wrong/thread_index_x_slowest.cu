// Wrong on purpose: the thread index flattened with z fastest and x slowest. It is still a
// permutation of 0 .. T-1, so every slot is written once and the arrays look consistent, but
// each slot holds the wrong thread (the hardware numbers threads x fastest, so this kernel's
// warps and lanes are not the real ones). Caught by threadIdx stored in the slot.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_1d)
UNUSED_IDS_KERNEL(ids_2d)
UNUSED_PRINT_KERNEL

__global__ void ids_3d(Ids ids) {
  const int t = threadIdx.z + blockDim.z * (threadIdx.y + blockDim.y * threadIdx.x);  // reversed
  const int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const int g = b * (blockDim.x * blockDim.y * blockDim.z) + t;
  ids.block_idx[g] = blockIdx;
  ids.thread_idx[g] = threadIdx;
  ids.block[g] = b;
  ids.thread[g] = t;
  ids.global[g] = g;
  ids.warp[g] = t / 32;
  ids.lane[g] = t % 32;
}
}  // namespace hello_threads
