// Wrong on purpose: histogram_vector counts the n / 16 whole vectors and nothing else: the 1-15
// bytes after the last whole vector are never counted.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_SHARED
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  wrong_helpers::clear(counts);
  const uint4* vectors = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16;
  for (long long i = wrong_helpers::global_thread(); i < whole;
       i += wrong_helpers::grid_threads()) {
    const uint4 q = vectors[i];
    wrong_helpers::count_word(counts, q.x);
    wrong_helpers::count_word(counts, q.y);
    wrong_helpers::count_word(counts, q.z);
    wrong_helpers::count_word(counts, q.w);
  }
  // missing: the bytes 16 * whole .. n - 1
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
