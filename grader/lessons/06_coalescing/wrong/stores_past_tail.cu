// Wrong on purpose: rounds the group count up and copies the last, partial group as a whole
// float4, load and store. The n floats of `out` are right, but when n % 4 != 0 the last thread
// stores 1 to 3 floats past out[n - 1]: copied from past the end of `in`. If the input's guard
// and the output's guard held the same bytes, the stray store would write back exactly what the
// guard check looks for and pass; the guards hold different sentinels, so it must show as
// elements written past the end.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int groups = n / 4 + (n % 4 != 0);  // the last group may be partial
  if (t < groups) reinterpret_cast<float4*>(out)[t] = reinterpret_cast<const float4*>(in)[t];
}
}  // namespace coalescing
