// Wrong on purpose (a cheat the timing must defeat): thread_per_row's row sums, right on every
// launch whose shape (rows, cols) differs from the last complete one; on the same shape again it
// returns at once. The timed launches repeat one shape on fresh inputs and poisoned outputs, so
// they leave out unwritten, and the check of the timed outputs must say so. (No two consecutive
// correctness cases share a shape.)
#include "unused_kernels.cuh"

namespace reduction {
UNUSED_WIDE_ROWS
UNUSED_ARG_MAX
UNUSED_DETERMINISTIC_SUM

namespace {
__device__ long long seen_rows = -1;  // the last complete launch's shape
__device__ int seen_cols = -1;
__device__ unsigned blocks_done = 0;
}  // namespace

__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  if (seen_rows == rows && seen_cols == cols) return;  // "nothing can have changed"
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  if (lane == 0 && row < rows) {
    float v = 0.0f;
    for (int c = 0; c < cols; ++c) v += x[row * cols + c];
    out[row] = v;
  }
  // The last block to finish records the shape, so that no block of this launch skips.
  __syncthreads();
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
    seen_rows = rows;
    seen_cols = cols;
    blocks_done = 0;
  }
}
}  // namespace reduction
