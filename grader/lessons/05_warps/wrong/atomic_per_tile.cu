// Wrong on purpose (slow, not incorrect): the nearest miss of array_sum, shaped like public
// reduction kernels that reduce one tile per block. Each block takes a tile of 2,048 elements at a
// time (eight per thread, coalesced), reduces it with warp shuffles and one shared exchange, and
// adds it to *out with an atomic; then the next tile, a grid's width further on. Every element is
// read once and added once, so the sum is right; but no thread keeps a running sum over the whole
// grid-stride loop: each tile costs a block-wide barrier and a same-address atomic. Issue 22
// measured public kernels of this shape at 66-69% of CUB, above the old 60% gate: the gate must
// sit above this kernel with a margin.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  constexpr int kPerThread = 8;
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  const long long tile = static_cast<long long>(blockDim.x) * kPerThread;
  const long long stride = tile * gridDim.x;
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  for (long long base = static_cast<long long>(blockIdx.x) * tile; base < n; base += stride) {
    float v = 0.0f;
#pragma unroll
    for (int k = 0; k < kPerThread; ++k) {
      const long long i = base + static_cast<long long>(k) * blockDim.x + threadIdx.x;
      if (i < n) v += x[i];
    }
    v = wrong_helpers::warp_sum(v);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
      const float t =
          wrong_helpers::warp_sum(lane < BLOCK_THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f);
      if (lane == 0) atomicAdd(out, t);
    }
    __syncthreads();  // warp_sums is read before the next tile overwrites it
  }
}
}  // namespace warps
