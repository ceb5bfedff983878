// Wrong on purpose: rounds the group count up and loads the last group as a whole float4, then
// stores only the floats below n. The output is right on every n, but when n % 4 != 0 the last
// thread reads 4 to 12 bytes past the end of `in`: into the correctness tests' guard elements, or
// the allocation's slack when timed. That never faults and the extra floats are dropped, so no
// output check can see it: compute-sanitizer memcheck (exact-size buffers in quick mode) must.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int groups = n / 4 + (n % 4 != 0);  // the last group may be partial
  if (t >= groups) return;
  const float4 v = reinterpret_cast<const float4*>(in)[t];  // whole 16 bytes, even past n
  const int first = 4 * t;
  if (first + 3 < n) {
    reinterpret_cast<float4*>(out)[t] = v;
  } else {
    // Only the stores are bounded: 1 to 3 floats of the tail.
    out[first] = v.x;
    if (first + 1 < n) out[first + 1] = v.y;
    if (first + 2 < n) out[first + 2] = v.z;
  }
}
}  // namespace coalescing
