// Wrong on purpose: pass 2 without the __syncthreads() between the warps' stores of their sums to
// shared memory and warp 0's loads of them. Pass 1 and the ticket are the solution's. In the last
// block, warp 0 may read a slot before its warp has written it (or read the value a previous
// launch left there): often right by luck, so racecheck must report the shared-memory hazard;
// when the race does change the sum, the repeated runs see different bits.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  SOLUTION_PASS_1_THEN_LAST_BLOCK
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  float v = wrong_helpers::partials_share(n, partials);
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = wrong_helpers::warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  // missing: __syncthreads();
  if (warp == 0) {
    v = wrong_helpers::warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
    if (lane == 0) {
      *out = v;
      *blocks_done = 0;
    }
  }
}
}  // namespace reduction
