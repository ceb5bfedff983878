// Wrong on purpose (slow, not incorrect): the stub's kernel. Lane 0 of each team sums its row
// alone; on the timing shape (256 floats per row, 32 lanes per team) one lane in 32 works and
// the working lanes of a warp load addresses a whole row (1 KiB) apart.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  if (lane != 0 || row >= rows) return;
  float v = 0.0f;
  for (int c = 0; c < cols; ++c) v += x[row * cols + c];
  out[row] = v;
}
}  // namespace reduction
