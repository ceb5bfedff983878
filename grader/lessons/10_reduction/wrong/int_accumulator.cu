// Wrong on purpose: row_sums_wide keeps each thread's sum in an int (int v; v += x[c]), so every
// addition drops the running sum's fraction. Exact on whole numbers, and within the bound on the
// mixed magnitudes, whose sum of |x| is huge; on floats in [0.5, 1.5) it loses about half a unit
// per element.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  const auto [row, begin, end] = wrong_helpers::wide_part(cols, parts);
  int v = 0;  // should be float
  for (long long c = begin + threadIdx.x; c < end; c += blockDim.x) v += x[row * cols + c];
  const float sum = wrong_helpers::block_sum(static_cast<float>(v));
  if (threadIdx.x == 0 && row < rows) atomicAdd(&out[row], sum);
}
}  // namespace reduction
