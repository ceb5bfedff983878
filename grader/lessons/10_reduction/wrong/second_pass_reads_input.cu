// Wrong on purpose: pass 2 reads the input instead of the partials. Pass 1 and the ticket are
// right; the last block adds x[0 .. tiles - 1], the first sum_tiles(n) elements of the input,
// where it should add partials[0 .. tiles - 1]: right only for n = 1 (one tile, and x[0] is its
// sum).
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  SOLUTION_PASS_1_THEN_LAST_BLOCK
  float v = 0.0f;
  for (long long t = threadIdx.x; t < sum_tiles(n); t += blockDim.x) v += x[t];  // partials[t]
  v = wrong_helpers::block_sum(v);
  if (threadIdx.x == 0) {
    *out = v;
    *blocks_done = 0;
  }
}
}  // namespace reduction
