// Wrong on purpose: in a 2-D block, warp and lane computed from threadIdx.x instead of the linear
// thread index. The slot, the block and the thread are right; the warp and lane are right only
// when blockDim.y = 1.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_1d)
UNUSED_IDS_KERNEL(ids_3d)
UNUSED_PRINT_KERNEL

__global__ void ids_2d(Ids ids) {
  const int t = threadIdx.x + threadIdx.y * blockDim.x;
  const int b = blockIdx.x + blockIdx.y * gridDim.x;
  const int g = b * (blockDim.x * blockDim.y) + t;
  ids.block_idx[g] = blockIdx;
  ids.thread_idx[g] = threadIdx;
  ids.block[g] = b;
  ids.thread[g] = t;
  ids.global[g] = g;
  ids.warp[g] = threadIdx.x / 32;  // should be t / 32
  ids.lane[g] = threadIdx.x % 32;  // should be t % 32
}
}  // namespace hello_threads
