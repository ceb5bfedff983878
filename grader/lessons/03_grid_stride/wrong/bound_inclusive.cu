// Wrong on purpose: the loop runs while i <= n, one element too far. The thread whose index
// reaches n reads x[n] and y[n], past both arrays, and writes y[n]: the guard elements after y
// catch the write ("outside the output"); under compute-sanitizer, memcheck reports the accesses.
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i <= n;
       i += stride)
    y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
