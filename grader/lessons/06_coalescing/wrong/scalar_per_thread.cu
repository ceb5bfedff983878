// Wrong on purpose: correct on every n, but not vectorized. Thread t copies its 4 floats with
// four 4-byte loads and stores, so lanes are 16 bytes apart in each instruction: a warp's load
// spans 512 bytes (16 sectors) for 128 useful ones, and the next three instructions fetch the
// same sectors again from L1. Four times the memory instructions of the float4 copy, each
// touching 4x the sectors it uses. Must fail the vector_copy gate.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t > n / 4) return;  // from here 4 * t <= n, and 4 * t + k < n is checked before use
  for (int k = 0; k < 4 && 4 * t + k < n; ++k) out[4 * t + k] = in[4 * t + k];
}
}  // namespace coalescing
