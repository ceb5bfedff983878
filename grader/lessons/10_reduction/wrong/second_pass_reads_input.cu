// Wrong on purpose: pass 2 reads the input instead of the partials. Pass 1 is right; pass 2 adds
// x[0 .. tiles - 1], the first sum_tiles(n) elements of the input, where it should add
// partials[0 .. tiles - 1]: right only for n = 1 (one tile, and x[0] is its sum).
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

SOLUTION_TILE_SUMS

__global__ void total_of_tiles(const float* __restrict__ x, long long n,
                               const float* __restrict__ /*partials*/, float* __restrict__ out) {
  float v = 0.0f;
  for (long long t = threadIdx.x; t < sum_tiles(n); t += blockDim.x) v += x[t];  // partials[t]
  v = wrong_helpers::block_sum(v);
  if (threadIdx.x == 0) *out = v;
}
}  // namespace reduction
