// Wrong on purpose: no __syncthreads() between counting and merging. Thread t reads bin t of the
// block's counters while other warps may still be adding to them, so the counts added after the
// read are lost: a shared-memory race.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  wrong_helpers::clear(counts);
  wrong_helpers::count_words(data, n, counts);
  // missing: __syncthreads();
  if (counts[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}
}  // namespace histogram
