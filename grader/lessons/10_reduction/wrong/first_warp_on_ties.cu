// Wrong on purpose: the threads' loops and the warps' shuffles are right, but thread 0 merges the
// block's warp results in warp order, taking a warp's pair only when its value is strictly larger:
// on equal values the lowest warp wins, whatever the indices. Wrong when a lower warp found its
// maximum in a later pass of the grid-stride loop than a higher warp (element grid + 3 in warp 0
// against element 40 in warp 1); ties inside one pass, where lower warps hold lower indices, come
// out right.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_DETERMINISTIC_SUM

__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  __shared__ float values[BLOCK_THREADS / WARP_SIZE];
  __shared__ long long indices[BLOCK_THREADS / WARP_SIZE];
  float value = -INFINITY;
  long long index = -1;
  wrong_helpers::thread_best(x, n, value, index);
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    wrong_helpers::keep_better(value, index, __shfl_down_sync(0xffffffffu, value, offset),
                               __shfl_down_sync(0xffffffffu, index, offset));
  if (threadIdx.x % WARP_SIZE == 0) {
    values[threadIdx.x / WARP_SIZE] = value;
    indices[threadIdx.x / WARP_SIZE] = index;
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (int w = 1; w < BLOCK_THREADS / WARP_SIZE; ++w)
    if (indices[w] >= 0 && (index < 0 || values[w] > value)) {  // should compare indices on ties
      value = values[w];
      index = indices[w];
    }
  if (index >= 0) atomicMax(key, arg_max_key(value, index));
}
}  // namespace reduction
