// Wrong on purpose: each block stores its part's sum, out[row] = sum, instead of adding it with
// atomicAdd. Right where a row has one part (many rows); where it has several, out[row] holds
// the part of the block that wrote last.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  const auto [row, begin, end] = wrong_helpers::wide_part(cols, parts);
  float v = 0.0f;
  for (long long c = begin + threadIdx.x; c < end; c += blockDim.x) v += x[row * cols + c];
  v = wrong_helpers::block_sum(v);
  if (threadIdx.x == 0 && row < rows) out[row] = v;  // should be atomicAdd(&out[row], v)
}
}  // namespace reduction
