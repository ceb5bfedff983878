// Wrong on purpose: one identity for both reductions. Lanes past n contribute 0 to the sum (right)
// and 0 to the maximum (wrong unless the group has an element >= 0): the maximum of a partial
// warp of negative numbers comes out as 0.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_ARRAY_SUM

__global__ void warp_reduce(const float* __restrict__ x, float* __restrict__ sums,
                            float* __restrict__ maxs, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const float v = i < n ? x[i] : 0.0f;
  float s = v, m = v;
  for (int offset = 16; offset > 0; offset /= 2) {
    s += __shfl_down_sync(0xffffffffu, s, offset);
    m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, offset));
  }
  const long long group = i / WARP_SIZE;
  if (threadIdx.x % WARP_SIZE == 0 && group * WARP_SIZE < n) {
    sums[group] = s;
    maxs[group] = m;
  }
}
}  // namespace warps
