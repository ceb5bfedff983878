// Wrong on purpose: a float4 copy that forgets the tail. Every whole group of 4 floats is copied,
// but when n is not a multiple of 4 the last 1 to 3 floats are never written. Right on every n
// that is a multiple of 4 (including the timing shape's whole groups), so only the correctness
// shapes catch it. Must fail vector_copy with "never written".
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n / 4) reinterpret_cast<float4*>(out)[t] = reinterpret_cast<const float4*>(in)[t];
}
}  // namespace coalescing
