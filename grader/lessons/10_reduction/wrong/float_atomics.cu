// Wrong on purpose: float atomics in the deterministic sum. Each block sums its fixed tiles (one
// float per thread and load), but adds each tile's sum into one float with atomicAdd instead of
// writing partials[t]; the last block (the solution's ticket) copies that float to *out and sets it
// back to 0. The result is within the error bound, but hundreds of blocks' atomics reach the float
// in the order they finish, which changes from run to run, and with it the rounding of the sum's
// last bits: the repeated runs catch it (floats in [0.5, 1.5) with random low bits, 62 to 2,048
// tile sums on the larger cases).
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

namespace {
__device__ float total = 0.0f;  // 0 between launches: the last block sets it back
}  // namespace

__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* /*partials*/,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  for (long long t = blockIdx.x; t < sum_tiles(n); t += gridDim.x) {
    const long long base = t * SUM_TILE, end = base + SUM_TILE < n ? base + SUM_TILE : n;
    float v = 0.0f;
    for (long long i = base + threadIdx.x; i < end; i += blockDim.x) v += x[i];
    v = wrong_helpers::block_sum(v);
    if (threadIdx.x == 0) atomicAdd(&total, v);  // should be partials[t] = v
    __syncthreads();
  }
  if (!wrong_helpers::last_block(blocks_done)) return;
  if (threadIdx.x == 0) {
    *out = atomicExch(&total, 0.0f);
    *blocks_done = 0;
  }
}
}  // namespace reduction
