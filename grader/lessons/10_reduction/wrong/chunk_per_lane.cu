// Wrong on purpose (slow, not incorrect): the near miss of narrow_rows. Every lane of the team
// works and the team's shuffles are right, but lane l takes a contiguous chunk of the row,
// columns l * chunk .. l * chunk + chunk - 1 (chunk = ceil(cols / lanes)), instead of columns
// l, l + lanes, ...: one load instruction of the warp spans 32 chunks (1 KiB at 8 floats each)
// and uses 128 bytes of it; the rest is served again from L1 on the following iterations only
// if it is still there.
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  const int chunk = (cols + lanes - 1) / lanes;
  float v = 0.0f;
  if (row < rows) {
    const int begin = lane * chunk, end = begin + chunk < cols ? begin + chunk : cols;
    for (int c = begin; c < end; ++c) v += x[row * cols + c];
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset, lanes);
  if (lane == 0 && row < rows) out[row] = v;
}
}  // namespace reduction
