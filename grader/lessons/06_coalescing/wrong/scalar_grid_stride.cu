// Wrong on purpose (slow, not incorrect): a near miss of step vector_copy. No float4: a coalesced
// grid-stride loop of 4-byte copies over the step's grid (ceil(n / 4) threads rounded up to whole
// blocks, so each thread makes about four passes). Every access of a warp is 128 contiguous bytes,
// no sector wasted, and nvcc may unroll the loop so that a thread keeps several loads in flight;
// but each byte costs four times the memory instructions of the float4 copy. The calibration of
// 2026-11-29 measured such a loop at 94.8% of the float4 copy, above the 90% gate (calibration.md):
// the gate must sit above it for the step to grade 16-byte accesses.
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
