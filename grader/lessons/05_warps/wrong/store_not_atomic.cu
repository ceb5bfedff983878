// Wrong on purpose: the right block sums, combined with a plain store. Every block writes its own
// sum to *out; the last one to finish wins, and *out holds one block's part of the sum. Right
// only when the grid has a single block (n <= 256).
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  acc = wrong_helpers::warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    const float block_sum =
        wrong_helpers::warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
    if (lane == 0) *out = block_sum;
  }
}
}  // namespace warps
