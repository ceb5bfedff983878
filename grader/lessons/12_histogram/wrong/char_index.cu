// Wrong on purpose: the byte read through a char, which is signed on the GPU as on most hosts:
// bytes 128-255 become -128 .. -1, and their atomics land in the 512 bytes before bins. Bins 128
// .. 255 stay 0; the memory before bins is damaged.
#include "unused_kernels.cuh"

namespace histogram {
UNUSED_HISTOGRAM_SHARED
UNUSED_HISTOGRAM_VECTOR

__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins) {
  const char* bytes = reinterpret_cast<const char*>(data);
  for (long long i = wrong_helpers::global_thread(); i < n; i += wrong_helpers::grid_threads()) {
    const char b = bytes[i];  // should be unsigned char
    atomicAdd(&bins[b], 1u);
  }
}
}  // namespace histogram
