// Wrong on purpose (slow, not incorrect): the deterministic sum with pass 2 done by thread 0
// alone, one partial after the other (65,536 at 2^26 elements), added in double so that the
// long chain stays within the error bound. Right and the same bits on every run and grid, but
// the rest of pass 2's block idles while one thread's chain of dependent additions runs.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

SOLUTION_TILE_SUMS

__global__ void total_of_tiles(const float* __restrict__ /*x*/, long long n,
                               const float* __restrict__ partials, float* __restrict__ out) {
  if (threadIdx.x != 0) return;
  double v = 0.0;
  for (long long t = 0; t < sum_tiles(n); ++t) v += partials[t];
  *out = static_cast<float>(v);
}
}  // namespace reduction
