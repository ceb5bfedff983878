// Wrong on purpose: a 64-bit loop, but the thread's global index is first stored in an int.
// Right on every grid of fewer than 2^31 threads, so it passes step grid_stride and the large
// case on the 4-per-SM grid. On the large case's full grid (8,388,609 blocks, 2^31 + 256 threads)
// the last 256 threads get a negative start (blockIdx.x * blockDim.x + threadIdx.x is unsigned
// 32-bit, and past 2^31 - 1 the conversion to int wraps): they touch x[i] and y[i] near -2^31,
// 8 GiB before each array (an illegal address if nothing is mapped there), then, one stride later,
// update elements 256 .. 511 a second time, and the 17 elements from 2^31 on are never updated.
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = t; i < n; i += stride) y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
