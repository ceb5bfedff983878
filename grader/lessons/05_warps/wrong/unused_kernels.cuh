// Wrong-kernel submissions are graded only on the step the manifest names; the kernels of the
// other steps are empty here (they are never graded in that variant), and the helpers are the
// solution's.
#pragma once
#include "warps.cuh"

namespace warps {
namespace wrong_helpers {

// The sum of v over the warp's 32 lanes, in lane 0; every lane must call it.
__device__ inline float warp_sum(float v) {
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

}  // namespace wrong_helpers
}  // namespace warps

#define UNUSED_UNIFORM_BRANCH \
  __global__ void uniform_branch(const float* __restrict__, float* __restrict__, int) {}
#define UNUSED_WARP_REDUCE                                                                         \
  __global__ void warp_reduce(const float* __restrict__, float* __restrict__, float* __restrict__, \
                              int) {}
#define UNUSED_ARRAY_SUM \
  __global__ void array_sum(const float* __restrict__, float* __restrict__, long long) {}
