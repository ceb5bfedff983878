// Wrong on purpose (a cheat the timing must defeat): one output channel per thread with scalar
// loads, right on every launch whose n differs from the last complete one; on the same n again it
// returns at once. The timed launches repeat one n on fresh inputs and poisoned outputs, so they
// leave out unwritten, and the check of the timed outputs must say so. (The correctness cases run
// in their listed order, where n_4099_reals and n_65537_reals follow other sizes; under --quick,
// which skips the larger ones, n_4099_reals follows n_4099 and fails, but only the full run
// grades.)
#include "unused_kernels.cuh"

namespace occupancy_profiling {
namespace {
__device__ long long seen_n = -1;  // the last complete launch's n
__device__ unsigned blocks_done = 0;
}  // namespace

__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n) {
  if (seen_n == n) return;  // "nothing can have changed"
  const long long items = n * CHANNELS;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < items;
       j += stride) {
    float s = 0.0f;
    for (int c = 0; c < CHANNELS; ++c)
      s += m[j % CHANNELS * CHANNELS + c] * in[j / CHANNELS * CHANNELS + c];
    out[j] = s;
  }
  // The last block to finish records n, so that no block of this launch skips.
  __syncthreads();
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
    seen_n = n;
    blocks_done = 0;
  }
}

SOLUTION_CHOOSE_BLOCK_SIZE
}  // namespace occupancy_profiling
