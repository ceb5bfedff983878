// The near miss of the contention steps: privatized, per-warp counters, and equal bytes of each
// word merged before their atomics (the run-length idea of CUB's histogram, on 4 bytes). Correct,
// close to the gate on uniform bytes, and far slower than one copy per block as the hot bin's
// share grows (calibration.md has the figures).
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  rungs::warp_counters_merged(data, n, bins);
}
}  // namespace histogram
