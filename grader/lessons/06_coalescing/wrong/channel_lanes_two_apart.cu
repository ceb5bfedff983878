// Wrong on purpose (slow, not incorrect): the nearest miss of step by_channel. The channel is on
// blockIdx.y, as the step asks, and each block covers the same 256 elements of its channel as the
// solution's block; but inside the block thread t takes element 2 * (t % 128) + t / 128 of them, so
// warps 0-3 take the even elements and warps 4-7 the odd ones. The lanes of a warp are 2 floats
// (8 bytes) apart: each load and store spans 256 bytes, 8 sectors for 128 useful bytes, half of
// every sector wasted per request (`channel_fastest` wastes 7/8: lanes n floats apart). The other
// half belongs to a warp of the same block and may still be in L1 when that warp reads it. The
// gate must sit above it.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void scale_channels(const float* __restrict__ in, const float* __restrict__ gain,
                               float* __restrict__ out, int channels, int n) {
  const unsigned half = BLOCK_THREADS / 2;
  const int c = blockIdx.y;
  // blockIdx.x * 256 + 255 < n + 255 < 2^31: the unsigned sum fits in an int.
  const int i =
      static_cast<int>(blockIdx.x * blockDim.x + 2 * (threadIdx.x % half) + threadIdx.x / half);
  if (i < n) out[c * n + i] = in[c * n + i] * gain[c];
}
}  // namespace coalescing
