// Wrong on purpose: the inclusive scan is right, but the exclusive one is taken from the lane
// below with __shfl_up_sync(inclusive, 1). Lane 0 has no lane below it and gets its own value
// back (the shuffle's rule for lanes under the distance), so at every 32nd element the
// "exclusive" result includes the element itself: the classic inclusive/exclusive off-by-one.
#include "unused_kernels.cuh"

namespace scan {
UNUSED_REDUCE_CHUNKS
UNUSED_SCAN_CHUNK_SUMS
UNUSED_SCAN_CHUNKS
UNUSED_LOOK_BACK_SCAN
UNUSED_COUNT_CHUNKS
UNUSED_COMPACT_CHUNKS

__global__ void block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                           int* __restrict__ exclusive, int n) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  const long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  const int v = i < n ? x[i] : 0;
  const int in_warp = wrong_helpers::warp_inclusive_scan(v);
  const int below = __shfl_up_sync(wrong_helpers::kFullMask, in_warp, 1);  // lane 0: its own
  if (lane == WARP_SIZE - 1) warp_totals[warp] = in_warp;
  __syncthreads();
  int before = 0;
  for (int w = 0; w < warp; ++w) before += warp_totals[w];
  if (i < n) {
    inclusive[i] = before + in_warp;
    exclusive[i] = before + below;
  }
}
}  // namespace scan
