// Wrong on purpose: the lanes past n return before the shuffles, and the lanes that stay shuffle
// with the full mask 0xffffffff, which names lanes that have exited. The PTX ISA calls the result
// undefined when a lane sources a register from an inactive (exited) lane, and so does the
// Programming Guide for a source lane that is not participating. Right on every whole
// warp; on a partial warp (n % 32 != 0) the last group's sum and maximum depend on whatever the
// hardware returns for the missing lanes.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_ARRAY_SUM

__global__ void warp_reduce(const float* __restrict__ x, float* __restrict__ sums,
                            float* __restrict__ maxs, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = x[i], m = x[i];
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
