// Wrong on purpose: bins[b] += 1 on global memory without an atomic. Two threads that update the
// same bin at once both read the old count and both write it plus one: increments are lost.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_SHARED
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  for (long long i = wrong_helpers::global_thread(); i < n; i += wrong_helpers::grid_threads())
    bins[data[i]] += 1;  // should be atomicAdd(&bins[data[i]], 1u)
}
}  // namespace histogram
