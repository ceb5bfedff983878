// Wrong on purpose (slow, not incorrect): no warp or block combination. Every thread with an
// element does its own 64-bit atomicMax on the one key: 2,048 same-address atomics per SM
// (8 blocks of 256), serialized where they meet, against one per block.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_DETERMINISTIC_SUM

__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  float value = -INFINITY;
  long long index = -1;
  wrong_helpers::thread_best(x, n, value, index);
  if (index >= 0) atomicMax(key, arg_max_key(value, index));
}
}  // namespace reduction
