// Wrong on purpose: the format has no final newline, so the lines of all threads run together
// into one long line of the host's output.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_1d)
UNUSED_IDS_KERNEL(ids_2d)
UNUSED_IDS_KERNEL(ids_3d)

__global__ void print_ids() {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  printf("block %d thread %d global %d", static_cast<int>(blockIdx.x),
         static_cast<int>(threadIdx.x), g);
}
}  // namespace hello_threads
