// Wrong on purpose: the last block never sets the counter of finished blocks back to 0. The first
// launch is right; the next one finds the counter at the first launch's grid size, no block gets
// the ticket gridDim.x - 1 (or one gets it before the others have finished), and *out is never
// written, or written too early.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  SOLUTION_PASS_1_THEN_LAST_BLOCK
  const float v = wrong_helpers::block_sum(wrong_helpers::partials_share(n, partials));
  if (threadIdx.x == 0) *out = v;  // missing: *blocks_done = 0;
}
}  // namespace reduction
