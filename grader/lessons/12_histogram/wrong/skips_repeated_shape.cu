// Wrong on purpose (a cheat the timing must defeat): global_warp_aggregated's histogram, right on
// every launch whose n differs from the last complete one; on the same n again it returns at once,
// adding nothing to the bins. The timed launches repeat one n on fresh inputs, so their bins stay
// as the launcher zeroed them, and the check of the timed outputs must say so.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR

namespace {
__device__ long long seen_n = -1;  // the last complete launch's n
__device__ unsigned blocks_done = 0;
}  // namespace

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  if (seen_n == n) return;  // "nothing can have changed"
  rungs::warp_aggregated(data, n, bins);
  // The last block to finish records n, so that no block of this launch skips.
  __syncthreads();
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
    seen_n = n;
    blocks_done = 0;
  }
}
}  // namespace histogram
