// Wrong on purpose: the merge into the global bins with atomicAdd_block, atomic only with respect
// to the threads of the same block, while every block adds into the same 256 bins. The CUDA
// Programming Guide gives no atomicity between blocks for it; whether the hardware loses counts is
// for the GPU run to show (calibration.md).
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ wrong_helpers::WarpCounters counts;
  wrong_helpers::clear(&counts[0][0], WARPS_PER_BLOCK * BINS);
  wrong_helpers::count_words(data, n, counts[threadIdx.x / WARP_SIZE]);
  __syncthreads();
  const unsigned total = wrong_helpers::bin_total(counts);
  if (total != 0) atomicAdd_block(&bins[threadIdx.x], total);  // should be atomicAdd
}
}  // namespace histogram
