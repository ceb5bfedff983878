// probe: block counters, uint4 loads, four in flight
#include "unused_kernels.cuh"
namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_SHARED
__device__ __forceinline__ void cv(unsigned* c, const uint4& a) {
  wrong_helpers::count_word(c, a.x); wrong_helpers::count_word(c, a.y);
  wrong_helpers::count_word(c, a.z); wrong_helpers::count_word(c, a.w);
}
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  wrong_helpers::clear(counts);
  const uint4* v = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16, s = wrong_helpers::grid_threads(), g = wrong_helpers::global_thread();
  long long i = g;
  for (; i + 3 * s < whole; i += 4 * s) {
    const uint4 a = v[i], b = v[i + s], c = v[i + 2 * s], d = v[i + 3 * s];
    cv(counts, a); cv(counts, b); cv(counts, c); cv(counts, d);
  }
  for (; i < whole; i += s) cv(counts, v[i]);
  if (g < n - 16 * whole) atomicAdd(&counts[data[16 * whole + g]], 1u);
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
