// Wrong on purpose: the solution's array_sum without the __syncthreads() between the warp sums'
// stores and warp 0's loads of them. Warp 0 may read a slot before its warp has written it; the
// sums often come out right anyway (the warps of a block run close together), so the tests alone
// cannot be relied on: racecheck must report the shared-memory hazard.
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
  // missing: __syncthreads();
  if (warp == 0) {
    const float block_sum =
        wrong_helpers::warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, block_sum);
  }
}
}  // namespace warps
