// Wrong on purpose: every thread prints its line twice.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_1d)
UNUSED_IDS_KERNEL(ids_2d)
UNUSED_IDS_KERNEL(ids_3d)

__global__ void print_ids() {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 2; ++k)
    printf("block %d thread %d global %d\n", static_cast<int>(blockIdx.x),
           static_cast<int>(threadIdx.x), g);
}
}  // namespace hello_threads
