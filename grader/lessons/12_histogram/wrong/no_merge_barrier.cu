// Wrong on purpose: no __syncthreads() between counting and merging. Thread t reads bin t of
// every warp's counters while other warps may still be adding to them: a shared-memory race that
// compute-sanitizer racecheck reports; the counts are often right by luck.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ wrong_helpers::WarpCounters counts;
  wrong_helpers::clear(&counts[0][0], WARPS_PER_BLOCK * BINS);
  wrong_helpers::count_words(data, n, counts[threadIdx.x / WARP_SIZE]);
  // missing: __syncthreads();
  const unsigned total = wrong_helpers::bin_total(counts);
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}
}  // namespace histogram
