// Wrong on purpose: the warp-uniform remap with the thread index of warps 4-7 used as it is,
// i = base + 2 * threadIdx.x + parity, instead of base + 2 * (threadIdx.x - 128) + parity. Warps
// 0-3 write the block's even elements; warps 4-7 write the odd elements 257 .. 511 past the
// block's start, which are the next block's. Every odd element from 257 on is still written (by
// the block before its own), but nobody writes block 0's odd elements 1, 3, .., 255.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_WARP_REDUCE
UNUSED_ARRAY_SUM

__global__ void uniform_branch(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int parity = threadIdx.x >= blockDim.x / 2;
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + 2 * threadIdx.x + parity;
  if (i < n) out[i] = parity ? odd_work(x[i]) : even_work(x[i]);
}
}  // namespace warps
