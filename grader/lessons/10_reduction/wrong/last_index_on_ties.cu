// Wrong on purpose: the last of equal maxima wins inside a block. The thread's loop replaces its
// best when x[i] >= best, and the lanes and warps keep the higher index on equal values; the
// blocks' keys are right (arg_max_key, atomicMax), so only ties within one block show: two equal
// maxima in one thread's share, in one warp, or in one block's elements.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_DETERMINISTIC_SUM

__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  float value = -INFINITY;
  long long index = -1;
  wrong_helpers::thread_best(x, n, value, index, /*last_wins=*/true);
  wrong_helpers::block_arg_max(value, index, /*last_wins=*/true);
  if (threadIdx.x == 0 && index >= 0) atomicMax(key, arg_max_key(value, index));
}
}  // namespace reduction
