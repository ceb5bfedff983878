// Wrong on purpose: no grid-stride loop. Each thread counts the word at its global index and
// stops, so only the first gridDim.x x 256 words are counted; the grid is at most one wave.
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
  if (g < whole) wrong_helpers::count_word(counts, words[g]);  // one pass only, no loop
  if (g < n - 4 * whole) atomicAdd(&counts[data[4 * whole + g]], 1u);
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
