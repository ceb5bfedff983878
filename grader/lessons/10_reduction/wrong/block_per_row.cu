// Wrong on purpose (slow, not incorrect): the near miss of wide_rows. Part 0 of each row sums
// the whole row and the row's other parts return at once: one block per row. Right on every
// shape, and as fast as the solution when rows outnumber the GPU's blocks; on the timing shape
// (64 rows) only 64 blocks run, fewer than an H200's 132 SMs.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_NARROW_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  if (blockIdx.x % parts != 0) return;  // the whole block leaves: no barrier is split
  const long long row = blockIdx.x / parts;
  float v = 0.0f;
  for (long long c = threadIdx.x; c < cols; c += blockDim.x) v += x[row * cols + c];
  v = wrong_helpers::block_sum(v);
  if (threadIdx.x == 0 && row < rows) atomicAdd(&out[row], v);
}
}  // namespace reduction
