// Wrong on purpose (slow, not incorrect): the grid-stride loop without the warp and block
// stages. Every thread adds its register sum to *out with its own atomicAdd: 256 atomics per
// block instead of one, all on the same address, which the memory system serializes. Must fail
// the array_sum gate.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  atomicAdd(out, acc);
}
}  // namespace warps
