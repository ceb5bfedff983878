// Wrong on purpose (slow, not incorrect): the stub's kernel. Thread i takes element i, so the
// branch follows i % 2, which alternates from lane to lane: every warp executes both chains, with
// half of its lanes masked off in each. The same arithmetic per element as the rung, about twice
// the issued instructions per warp. Must fail the uniform_branch gate.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_WARP_REDUCE
UNUSED_ARRAY_SUM

__global__ void uniform_branch(const float* __restrict__ x, float* __restrict__ out, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i % 2 == 1) ? odd_work(x[i]) : even_work(x[i]);
}
}  // namespace warps
