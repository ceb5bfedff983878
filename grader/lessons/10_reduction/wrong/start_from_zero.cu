// Wrong on purpose: each thread starts from value 0 (index -1) and keeps only elements strictly
// above it. On data with a positive element it is right; on data that is all negative or
// -infinity no thread finds a candidate and no block writes a key: *key stays 0.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_WIDE_ROWS
UNUSED_DETERMINISTIC_SUM

__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  float value = 0.0f;
  long long index = -1;
  wrong_helpers::thread_best(x, n, value, index);
  wrong_helpers::block_arg_max(value, index);
  if (threadIdx.x == 0 && index >= 0) atomicMax(key, arg_max_key(value, index));
}
}  // namespace reduction
