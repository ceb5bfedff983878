// Wrong on purpose (slow, not incorrect): a scalar grid-stride loop over the float4 grid. Every
// element is right, but each load moves 4 bytes instead of 16, so each thread has a quarter of
// the bytes in flight per memory instruction. The grader must fail it on speed.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = a * in[i];
}
}  // namespace vectorized_memory
