// Wrong on purpose (slow, not incorrect): the float4 geometry with the float4 taken apart. Each
// thread copies its own four consecutive floats 4t .. 4t + 3 with four 4-byte accesses (a loop
// over groups of four, so every n is covered). Every element is right, and no alignment is
// needed, but the lanes of a warp are 16 bytes apart: each warp instruction spans 512 bytes and
// uses 128 of them, and four instructions do the work of one. The grader must fail it on speed.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  const int stride = gridDim.x * blockDim.x;
  for (int g = blockIdx.x * blockDim.x + threadIdx.x; 4LL * g < n; g += stride)
    for (int k = 0; k < 4; ++k) {
      const int i = 4 * g + k;
      if (i < n) out[i] = a * in[i];
    }
}
}  // namespace vectorized_memory
