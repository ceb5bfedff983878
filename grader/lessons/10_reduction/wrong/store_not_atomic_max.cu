// Wrong on purpose: only one block's part written. Each block finds its best element right and
// stores its key with *key = ... instead of atomicMax: the block that writes last wins, so *key
// holds the best of one block's elements whenever the grid has more than one block.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_DETERMINISTIC_SUM

__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  float value = -INFINITY;
  long long index = -1;
  wrong_helpers::thread_best(x, n, value, index);
  wrong_helpers::block_arg_max(value, index);
  if (threadIdx.x == 0 && index >= 0) *key = arg_max_key(value, index);  // should be atomicMax
}
}  // namespace reduction
