// Wrong on purpose: float atomics in the deterministic sum. Pass 1 is the solution's (fixed
// tiles, one warp per tile); pass 2 zeroes *out and every thread atomicAdds each of its tile sums
// into it. The result is within the error bound, but the atomics of 32 warps reach *out in an
// order that changes from run to run, and with it the rounding of the sum's last bits: the
// repeated runs must catch it (floats in [0.5, 1.5) with random low bits, tens of thousands of
// tile sums on the large cases).
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

SOLUTION_TILE_SUMS

__global__ void total_of_tiles(const float* __restrict__ /*x*/, long long n,
                               const float* __restrict__ partials, float* __restrict__ out) {
  if (threadIdx.x == 0) *out = 0.0f;
  __syncthreads();
  for (long long t = threadIdx.x; t < sum_tiles(n); t += blockDim.x) atomicAdd(out, partials[t]);
}
}  // namespace reduction
