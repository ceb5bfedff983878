// Wrong on purpose: the block's best is right, but its key is built from the float's raw bits,
// (bits << 32) | (0xFFFFFFFF - index), without arg_max_key's order map. As unsigned integers the
// bits of negative floats order the wrong way (-infinity, 0xFF800000, is the largest of all), so
// on negative data the blocks' atomicMax picks the block whose best is the smallest.
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
  if (threadIdx.x == 0 && index >= 0)
    atomicMax(key, (static_cast<unsigned long long>(__float_as_uint(value)) << 32) |
                       (0xFFFFFFFFull - static_cast<unsigned long long>(index)));
}
}  // namespace reduction
