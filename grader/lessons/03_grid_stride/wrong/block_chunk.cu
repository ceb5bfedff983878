// Wrong on purpose (no grid-stride loop; correct on every grid): the nearest miss of step
// grid_stride. Each block takes one contiguous chunk of the array, ceil(n / gridDim.x) elements
// rounded up to a whole number of blocks (256), and its threads walk that chunk together,
// blockDim.x at a time. Every element is updated exactly once on every grid (blocks past the last
// chunk get none), and every warp access is still 128 contiguous, aligned bytes: coalesced like the
// solution. What it lacks is the step's technique, one stride of the whole grid: on the timing
// shape the 4-per-SM grid's 528 blocks of an H200 stream 528 separate regions of about 0.5 MiB of x
// and of y instead of sweeping the arrays together. If the gate cannot tell it from the grid-stride
// loop, the step's speed test grades coalescing only (calibration.md, "Near misses").
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const long long per_block = (n + gridDim.x - 1) / gridDim.x;
  const long long chunk = (per_block + blockDim.x - 1) / blockDim.x * blockDim.x;
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
