// Wrong on purpose: lesson 05's order in two passes. Each thread of pass 1 sums its grid-stride
// share, each block writes its sum to partials[blockIdx.x], and pass 2 adds the gridDim.x
// partials in a fixed order. No atomics: the same bits from run to run on one grid. But which
// elements a thread adds, and so the rounding, follows the grid: on another grid the bits
// change. (The block sums go to an array of this file's own, since partials holds one float per
// tile, fewer than the blocks of a large grid on small arrays.)
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX

namespace {
constexpr int kMaxBlocks = 1 << 16;
__device__ float block_sums[kMaxBlocks];
__device__ int pass1_blocks = 0;  // pass 1's grid, for pass 2
}  // namespace

__global__ void tile_sums(const float* __restrict__ x, long long n,
                          float* __restrict__ /*partials*/) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float v = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    v += x[i];
  v = wrong_helpers::block_sum(v);
  if (threadIdx.x == 0 && blockIdx.x < kMaxBlocks) block_sums[blockIdx.x] = v;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    pass1_blocks = gridDim.x < kMaxBlocks ? gridDim.x : kMaxBlocks;
}

__global__ void total_of_tiles(const float* __restrict__ /*x*/, long long /*n*/,
                               const float* __restrict__ /*partials*/, float* __restrict__ out) {
  const int used = pass1_blocks;
  float v = 0.0f;
  for (int b = threadIdx.x; b < used; b += blockDim.x) v += block_sums[b];
  v = wrong_helpers::block_sum(v);
  if (threadIdx.x == 0) *out = v;
}
}  // namespace reduction
