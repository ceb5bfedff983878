// The near miss of the contention steps: the textbook privatized kernel. One shared histogram per
// block (no per-warp split) and one shared atomic per byte (equal bytes of a word not merged),
// 4-byte loads. Correct; under contention nearly every lane of every atomic hits the hot bin.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[BINS];
  wrong_helpers::clear(counts, BINS);
  const unsigned* words = reinterpret_cast<const unsigned*>(data);
  const long long whole = n / 4, g = wrong_helpers::global_thread();
  for (long long w = g; w < whole; w += wrong_helpers::grid_threads()) {
    const unsigned v = words[w];
    for (int k = 0; k < 4; ++k) atomicAdd(&counts[(v >> (8 * k)) & 255u], 1u);
  }
  if (g < n - 4 * whole) atomicAdd(&counts[data[4 * whole + g]], 1u);
  __syncthreads();
  if (counts[threadIdx.x] != 0) atomicAdd(&bins[threadIdx.x], counts[threadIdx.x]);
}
}  // namespace histogram
