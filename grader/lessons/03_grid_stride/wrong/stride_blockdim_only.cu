// Wrong on purpose: the loop steps by blockDim.x, the threads of one block, instead of by the
// whole grid. Block b starts at element b * 256 and walks to the end of the array, so element i is
// updated by every block b <= i / 256: min(i / 256 + 1, gridDim.x) times (fewer where two blocks
// race on the same element and one update is lost). Right on a one-block grid only; on every
// other grid the elements past the first block come out as y + k * a * x with k > 1.
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x)
    y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
