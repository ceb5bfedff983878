// Wrong on purpose: the grid-stride loop of most tutorials, with an int index. Right for every n
// below 2^31, so it passes step grid_stride. In step large (n = 2^31 + 17) the index cannot reach
// the last elements: i += blockDim.x * gridDim.x is computed in unsigned 32-bit arithmetic and
// converted back to int, which wraps past 2^31 - 1 to a negative value (nvcc 13 -O3 for sm_90:
// add.s32, then cvt.s64.s32 and a 64-bit compare with n; no undefined behaviour is involved, so
// the compiler cannot widen the index). Since every int is below n, the loop never ends; on its
// way it reads and writes x[i] and y[i] for i near -2^31, 8 GiB before each array: an illegal
// address if nothing is mapped there, else a kernel that does not finish. Either way the large
// step must fail, saying that the index went past the largest int.
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
