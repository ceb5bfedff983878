// Wrong on purpose (slow, not incorrect): each thread takes one contiguous chunk of
// ceil(n / threads) elements and walks it alone. Every element is updated exactly once on every
// grid, but neighbouring lanes of a warp are a whole chunk apart (about 2 KB on the timing shape
// with the 4-per-SM grid of an H200), so each warp load and store touches 32 sectors, one per
// lane, instead of 4. The rest of each sector belongs to the same thread's next elements and may
// still be in L1 when it gets there, but every request still costs 32 sector look-ups and every
// store writes 4 bytes of a sector. Must fail the grid_stride gate.
#include "grid_stride.cuh"

namespace grid_stride {
__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  const long long threads = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long chunk = (n + threads - 1) / threads;
  const long long begin = t * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  for (long long i = begin; i < end; ++i) y[i] = a * x[i] + y[i];
}
}  // namespace grid_stride
