// Wrong on purpose (slow, not incorrect): a near miss of step vector_copy. No float4: a coalesced
// grid-stride loop of 4-byte copies over the step's grid (ceil(n / 4) threads rounded up to whole
// blocks, so each thread makes about four passes). Every access of a warp is 128 contiguous bytes,
// no sector wasted; but nvcc 13.0 does not unroll the loop (one 4-byte load and one store per
// pass: docs/measured/compiler.md, "Lesson 06"), and each byte costs four times the memory
// instructions of the float4 copy. The calibration of 2026-11-29 measured a loop of this kind at
// 94.8% of the float4 copy, above the 90% gate of then; this one measured 75.2% (calibration.md),
// under the 84% gate.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  // n < 2^31 and the grid has fewer than n / 4 + 256 threads: i + threads stays below 2^32.
  const unsigned threads = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < static_cast<unsigned>(n);
       i += threads)
    out[i] = in[i];
}
}  // namespace coalescing
