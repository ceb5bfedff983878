// Wrong on purpose: correct on every n, but the thread-to-particle map is transposed. The
// particles are split into 32 contiguous runs of S = ceil(n / 32); lane l of global warp w takes
// particle l * S + w. The structure of arrays is still there, but a warp's 32 lanes are S floats
// apart, so each of its six loads and three stores touches 32 sectors for 128 useful bytes; the
// rest of each sector belongs to the next warps. This is the SoA layout with the strided access
// of the lesson's first pattern (the AoS kernel, update_aos in launch.cu, cannot be submitted
// here: it has another signature). Must fail the soa_update gate.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX

__global__ void update_soa(Particles p, float dt, int n) {
  // n < 2^31 and the grid has ceil(n / 256) * 256 threads: 32-bit unsigned arithmetic is exact.
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned warp = t / 32, lane = t % 32;
  const unsigned runs = (static_cast<unsigned>(n) + 31) / 32;  // S: particles per run
  if (warp >= runs) return;  // the grid has ceil(n / 256) * 8 >= S warps
  const unsigned i = lane * runs + warp;
  if (i >= static_cast<unsigned>(n)) return;
  p.x[i] += p.vx[i] * dt;
  p.y[i] += p.vy[i] * dt;
  p.z[i] += p.vz[i] * dt;
}
}  // namespace coalescing
