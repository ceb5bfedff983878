// Wrong on purpose: pass 2 without the __syncthreads() between the warps' stores of their sums to
// shared memory and warp 0's loads of them. Warp 0 may read a slot before its warp has written
// it (or read the previous launch's value left there): often right by luck, so racecheck must
// report the shared-memory hazard; when the race does change the sum, the repeated runs see
// different bits.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

SOLUTION_TILE_SUMS

__global__ void total_of_tiles(const float* __restrict__ /*x*/, long long n,
                               const float* __restrict__ partials, float* __restrict__ out) {
  __shared__ float warp_sums[FINAL_THREADS / WARP_SIZE];
  float v = 0.0f;
  for (long long t = threadIdx.x; t < sum_tiles(n); t += blockDim.x) v += partials[t];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = wrong_helpers::warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  // missing: __syncthreads();
  if (warp == 0) {
    v = wrong_helpers::warp_sum(warp_sums[lane]);
    if (lane == 0) *out = v;
  }
}
}  // namespace reduction
