// Wrong on purpose: lesson 02's one-thread-per-element kernel, with its bounds check and no loop.
// Right on the full grid (ceil(n / 256) blocks); on a smaller grid only the first
// blockDim.x * gridDim.x elements are updated and the rest keep their initial values.
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
