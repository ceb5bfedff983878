// Wrong on purpose (slow, not incorrect): lesson 03's scalar grid-stride loop under this step's
// float4 grid. Every element is right and no alignment is needed, and the lanes of a warp are
// coalesced, but every instruction moves 4 bytes per lane: a quarter of the bytes in flight of a
// float4 body. In the calibration probe it reached about 90% of cudaMemcpyAsync on views one
// float past a boundary, and 90.6% in the grader's first run, under the gate of 95.5%; the float4
// kernel reached the copy's speed.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  const int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = a * in[i];
}
}  // namespace vectorized_memory
