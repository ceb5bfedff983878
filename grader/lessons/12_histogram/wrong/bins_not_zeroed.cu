// Wrong on purpose: the solution's histogram_shared without clearing the shared counters. They
// start with what an earlier block or launch left in that shared memory, so the bins get counts
// that no byte made.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];  // never cleared
  wrong_helpers::count_words(data, n, counts);
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
