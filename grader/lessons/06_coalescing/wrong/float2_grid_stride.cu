// Wrong on purpose (slow, not incorrect): the nearest miss of step vector_copy. 8 bytes per access
// instead of 16: the array is copied as n / 2 float2 pairs (both pointers are 16-byte aligned, so
// every pair is 8-byte aligned) by a grid-stride loop over the step's grid, two pairs per thread
// per pass with both loads issued before the stores, and thread 0 copies the last float when n is
// odd. Every access of a warp is 256 contiguous bytes, no sector wasted, and each thread keeps
// 16 bytes in flight as the float4 copy does; but with twice its memory instructions. The gate
// must sit above it for the step to grade 16-byte accesses.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  const float2* in2 = reinterpret_cast<const float2*>(in);
  float2* out2 = reinterpret_cast<float2*>(out);
  // pairs < 2^30 and the grid has fewer than n / 4 + 256 threads: j + 2 * threads < 2^32.
  const unsigned pairs = static_cast<unsigned>(n) / 2;
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = t; j < pairs; j += 2 * threads) {
    const bool second = j + threads < pairs;
    const float2 v0 = in2[j];
    float2 v1 = v0;
    if (second) v1 = in2[j + threads];
    out2[j] = v0;
    if (second) out2[j + threads] = v1;
  }
  if (n % 2 != 0 && t == 0) out[n - 1] = in[n - 1];
}
}  // namespace coalescing
