// The nearest miss of step privatized without privatization: correct, no shared counters. Each
// warp groups its lanes by byte with __match_any_sync, and the lowest lane of each group adds the
// group's size to the global bin: one global atomic per distinct byte of a warp's 32, about 30 on
// uniform bytes (fewer under contention).
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_GLOBAL
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  const int lane = threadIdx.x % WARP_SIZE;
  const long long stride = wrong_helpers::grid_threads();  // a multiple of 32: warps stay whole
  for (long long base = wrong_helpers::global_thread() - lane; base < n; base += stride) {
    const long long i = base + lane;
    // Lanes past n get a key no byte has, unique to the lane, and add nothing.
    const unsigned key = i < n ? data[i] : 256u + lane;
    const unsigned group = __match_any_sync(0xffffffffu, key);
    if (key < 256u && lane == __ffs(group) - 1) atomicAdd(&bins[key], __popc(group));
  }
}
}  // namespace histogram
