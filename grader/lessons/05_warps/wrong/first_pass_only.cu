// Wrong on purpose: lesson 02's one element per thread, with the rest of the solution intact.
// Right while the grid has a thread for every element (n up to SUM_BLOCKS_PER_SM x SMs x 256);
// on larger arrays every element past the grid's first pass is missing from the sum.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  float acc = i < n ? x[i] : 0.0f;
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  acc = wrong_helpers::warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    const float block_sum =
        wrong_helpers::warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, block_sum);
  }
}
}  // namespace warps
