// Wrong on purpose: computes the line's numbers and never prints them.
#include "unused_kernels.cuh"

namespace hello_threads {
UNUSED_IDS_KERNEL(ids_1d)
UNUSED_IDS_KERNEL(ids_2d)
UNUSED_IDS_KERNEL(ids_3d)

__global__ void print_ids() {
  [[maybe_unused]] const int g = blockIdx.x * blockDim.x + threadIdx.x;
}
}  // namespace hello_threads
