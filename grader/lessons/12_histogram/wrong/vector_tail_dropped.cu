// Wrong on purpose: histogram_vector counts the n / 16 whole vectors and nothing else: the 1-15
// bytes after the last whole vector are never counted.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_SHARED

__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ wrong_helpers::WarpCounters counts;
  wrong_helpers::clear(&counts[0][0], WARPS_PER_BLOCK * BINS);
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const uint4* vectors = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16;
  for (long long i = wrong_helpers::global_thread(); i < whole;
       i += wrong_helpers::grid_threads()) {
    const uint4 q = vectors[i];
    wrong_helpers::count_word(mine, q.x);
    wrong_helpers::count_word(mine, q.y);
    wrong_helpers::count_word(mine, q.z);
    wrong_helpers::count_word(mine, q.w);
  }
  // missing: the bytes 16 * whole .. n - 1
  wrong_helpers::merge(counts, bins);
}
}  // namespace histogram
