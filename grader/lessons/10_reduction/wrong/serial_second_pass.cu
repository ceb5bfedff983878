// Wrong on purpose (slow, not incorrect): the deterministic sum with pass 2 done by thread 0 of
// the last block alone, one partial after the other (4,096 at 2^26 elements), added in double so
// that the long chain stays within the error bound. Right and the same bits on every run and
// grid, but the rest of the block idles while one thread's chain of loads from L2 runs, after the
// whole GPU has finished pass 1.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  SOLUTION_PASS_1_THEN_LAST_BLOCK
  if (threadIdx.x != 0) return;
  double v = 0.0;
  for (long long t = 0; t < sum_tiles(n); ++t) v += __ldcg(&partials[t]);
  *out = static_cast<float>(v);
  *blocks_done = 0;
}
}  // namespace reduction
