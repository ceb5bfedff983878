// Wrong on purpose: the team's lanes share the row (lane l adds columns l, l + lanes, ...) but
// never combine their sums: lane 0 writes its own share. Right only where a team is one lane
// (rows of 1 float).
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  float v = 0.0f;
  if (row < rows)
    for (int c = lane; c < cols; c += lanes) v += x[row * cols + c];
  // missing: the shuffles of width `lanes`
  if (lane == 0 && row < rows) out[row] = v;
}
}  // namespace reduction
