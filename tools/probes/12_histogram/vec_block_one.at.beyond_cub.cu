// probe: block counters, uint4 loads, one per iteration
#include "unused_kernels.cuh"
namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_SHARED
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  wrong_helpers::clear(counts);
  const uint4* v = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16, g = wrong_helpers::global_thread();
  for (long long i = g; i < whole; i += wrong_helpers::grid_threads()) {
    const uint4 a = v[i];
    wrong_helpers::count_word(counts, a.x); wrong_helpers::count_word(counts, a.y);
    wrong_helpers::count_word(counts, a.z); wrong_helpers::count_word(counts, a.w);
  }
  if (g < n - 16 * whole) atomicAdd(&counts[data[16 * whole + g]], 1u);
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
