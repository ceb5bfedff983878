// Wrong on purpose: correct on every shape, but the channel is the fastest-moving index. The 2-D
// launch is flattened to one thread number t, and t is split as c = t % channels,
// i = t / channels, the way a loop over interleaved data would be written. Neighbouring lanes
// then work on neighbouring channels, n floats apart: every load and every store of a warp
// touches 32 different sectors. Each sector's other floats are needed by threads `channels`
// apart, later in the same block or in the next one, so the bytes are fetched more than once
// (L1/L2) and written in 4-byte pieces. Must fail the by_channel gate.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA

__global__ void scale_channels(const float* __restrict__ in, const float* __restrict__ gain,
                               float* __restrict__ out, int channels, int n) {
  // channels * n < 2^31, and the grid has fewer than 2^32 threads: 32-bit unsigned arithmetic is
  // exact, so the index math costs about what the right kernel's does (no 64-bit division).
  // The course's grid has ceil(n / 256) * 256 * channels >= channels * n threads, so thread t
  // takes the pair (c, i) numbered t, or none: every pair exactly once, for every shape.
  const unsigned total = static_cast<unsigned>(channels) * static_cast<unsigned>(n);
  const unsigned t = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= total) return;
  const int c = static_cast<int>(t % channels);
  const int i = static_cast<int>(t / channels);
  out[c * n + i] = in[c * n + i] * gain[c];
}
}  // namespace coalescing
