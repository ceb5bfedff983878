// Wrong on purpose (slow, not incorrect): the classic shared-memory tree, applied to every tile.
// The block walks the array 256 elements at a time (a grid-stride loop over tiles); each tile is
// stored in shared memory and halved eight times, with __syncthreads() after every level, and
// thread 0 adds the tile's sum to its register; one atomicAdd per block at the end. Every element
// costs a shared store and a share of eight block-wide barriers, most of whose levels keep only a
// few warps busy. Must fail the array_sum gate.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;  // used by thread 0 only
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x; base < n; base += stride) {
    const long long i = base + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (static_cast<int>(threadIdx.x) < half) tile[threadIdx.x] += tile[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) acc += tile[0];
    __syncthreads();  // tile[0] is read before the next tile overwrites it
  }
  if (threadIdx.x == 0) atomicAdd(out, acc);
}
}  // namespace warps
