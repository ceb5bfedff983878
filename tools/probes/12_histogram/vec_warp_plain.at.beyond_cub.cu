// probe: per-warp counters, uint4 loads, two in flight, one atomic per byte
#include "unused_kernels.cuh"
namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_SHARED
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  __shared__ unsigned counts[WARPS_PER_BLOCK][BINS];
  for (int i = threadIdx.x; i < WARPS_PER_BLOCK * BINS; i += BLOCK_THREADS) (&counts[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = counts[threadIdx.x / WARP_SIZE];
  const uint4* v = reinterpret_cast<const uint4*>(data);
  const long long whole = n / 16, stride = wrong_helpers::grid_threads(), g = wrong_helpers::global_thread();
  long long i = g;
  for (; i + stride < whole; i += 2 * stride) {
    const uint4 a = v[i], b = v[i + stride];
    wrong_helpers::count_word(mine, a.x); wrong_helpers::count_word(mine, a.y);
    wrong_helpers::count_word(mine, a.z); wrong_helpers::count_word(mine, a.w);
    wrong_helpers::count_word(mine, b.x); wrong_helpers::count_word(mine, b.y);
    wrong_helpers::count_word(mine, b.z); wrong_helpers::count_word(mine, b.w);
  }
  if (i < whole) { const uint4 a = v[i]; wrong_helpers::count_word(mine, a.x); wrong_helpers::count_word(mine, a.y); wrong_helpers::count_word(mine, a.z); wrong_helpers::count_word(mine, a.w); }
  if (g < n - 16 * whole) atomicAdd(&mine[data[16 * whole + g]], 1u);
  __syncthreads();
  unsigned total = 0;
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += counts[w][threadIdx.x];
  if (total != 0) atomicAdd(&bins[threadIdx.x], total);
}
}  // namespace histogram
