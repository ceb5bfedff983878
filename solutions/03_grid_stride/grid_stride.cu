// Lesson 03_grid_stride, completed: SAXPY with a grid-stride loop and 64-bit indices.
#include "grid_stride.cuh"

namespace grid_stride {

// Thread t of a grid of T threads handles elements t, t + T, t + 2T, ... below n: every element
// belongs to exactly one thread whatever the grid, and a grid larger than n leaves the extra
// threads with nothing to do (the loop condition is their bounds check). Consecutive threads take
// consecutive elements on every pass, so each warp's loads and store stay coalesced.
//
// The index and the stride are 64-bit: n reaches 2^31 + 17 in step `large`, past the largest int.
// blockIdx.x, blockDim.x and gridDim.x are 32-bit unsigned, so each product is widened before it
// is formed; the stride of a grid of 2^31 - 1 blocks of 256 threads needs 39 bits.
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    y[i] = a * x[i] + y[i];
}

}  // namespace grid_stride
