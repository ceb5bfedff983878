// Wrong on purpose: right sums and maxima, but lane 0 of every warp writes, including the warps
// of the last block that hold no element (with n = 33, warps 2-7 of block 0). Their results,
// 0 and -INFINITY, land past sums[ceil(n / 32) - 1] and maxs[ceil(n / 32) - 1]: caught by the
// guard elements after the outputs.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_ARRAY_SUM

__global__ void warp_reduce(const float* __restrict__ x, float* __restrict__ sums,
                            float* __restrict__ maxs, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  float s = i < n ? x[i] : 0.0f;
  float m = i < n ? x[i] : -INFINITY;
  for (int offset = 16; offset > 0; offset /= 2) {
    s += __shfl_down_sync(0xffffffffu, s, offset);
    m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, offset));
  }
  if (threadIdx.x % WARP_SIZE == 0) {
    sums[i / WARP_SIZE] = s;
    maxs[i / WARP_SIZE] = m;
  }
}
}  // namespace warps
