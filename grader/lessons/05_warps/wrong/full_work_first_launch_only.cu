// Wrong on purpose (a cheat the timing must defeat): the solution's sum on the first launch of
// each n; on a later launch with the same n it writes the sum it remembered and reads nothing.
// Its first, untimed launch on the timing shape is right; every timed launch runs on inputs of its
// own, so the remembered sum is wrong there, and the check of the timed outputs must say so.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

namespace {
__device__ long long last_n = -1;
__device__ float last_sum = 0.0f;
__device__ float sum_acc = 0.0f;
__device__ unsigned done_blocks = 0;
}  // namespace

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  if (last_n == n) {  // the same size as last time: replay
    if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(out, last_sum);
    return;
  }
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
  if (warp != 0) return;
  const float block_sum =
      wrong_helpers::warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
  if (lane != 0) return;
  atomicAdd(out, block_sum);
  atomicAdd(&sum_acc, block_sum);
  __threadfence();
  if (atomicAdd(&done_blocks, 1u) == gridDim.x - 1) {  // the last block remembers the sum
    last_sum = atomicExch(&sum_acc, 0.0f);
    last_n = n;
    done_blocks = 0;
  }
}
}  // namespace warps
