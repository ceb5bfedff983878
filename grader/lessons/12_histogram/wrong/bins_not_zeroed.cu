// Wrong on purpose: the solution's histogram_shared without clearing the shared counters. They
// start with what an earlier block or launch left in that shared memory, so the bins get counts
// that no byte made.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ wrong_helpers::WarpCounters counts;  // never cleared
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = wrong_helpers::global_thread();
  for (long long w = g; w < whole; w += wrong_helpers::grid_threads())
    wrong_helpers::count_word(mine, words[w]);
  if (g < n - 4 * whole) atomicAdd(&mine[data[4 * whole + g]], 1u);
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
