// Wrong on purpose: the shared counters updated with ++ instead of atomicAdd. Lanes of one
// instruction whose bytes are equal read the same old count and write the same new one, and so
// do warps that meet on a counter: increments are lost on any input of more than a few bytes.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  wrong_helpers::clear(counts);
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = wrong_helpers::global_thread();
  for (long long w = g; w < whole; w += wrong_helpers::grid_threads()) {
    const unsigned v = words[w];
    for (int k = 0; k < 4; ++k) ++counts[(v >> (8 * k)) & 255u];  // should be atomicAdd
  }
  if (g < n - 4 * whole) ++counts[data[4 * whole + g]];
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
