// Wrong on purpose (slow, not incorrect): the nearest miss of step soa_update. The structure of
// arrays, one particle per thread, each block on the same 256 particles as the solution's block;
// but inside the block thread t takes particle 2 * (t % 128) + t / 128 of them, so warps 0-3 take
// the even particles and warps 4-7 the odd ones. The lanes of a warp are 2 floats (8 bytes) apart:
// each of its six loads and three stores spans 256 bytes, 8 sectors for 128 useful bytes, half of
// every sector wasted per request (`strided_particles` wastes 7/8). The array-of-structures layout,
// the lesson's "before" (79.3% of the rung), cannot be submitted here (another signature); this is
// the nearest layout that can. The gate must sit above it.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX

__global__ void update_soa(Particles p, float dt, int n) {
  const unsigned half = BLOCK_THREADS / 2;
  // blockIdx.x * 256 + 255 < n + 255 < 2^31: the unsigned sum fits in an int.
  const int i =
      static_cast<int>(blockIdx.x * blockDim.x + 2 * (threadIdx.x % half) + threadIdx.x / half);
  if (i >= n) return;
  p.x[i] += p.vx[i] * dt;
  p.y[i] += p.vy[i] * dt;
  p.z[i] += p.vz[i] * dt;
}
}  // namespace coalescing
