// Lesson 06_coalescing, completed. Each kernel with the access pattern that makes it coalesced,
// and what the broken version of the same kernel does.
#include "coalescing.cuh"

namespace coalescing {

// The channel is constant across a block (blockIdx.y), the element follows threadIdx.x: a warp
// reads 32 consecutive floats of one channel (4 sectors) and writes 32 consecutive floats. Putting
// the channel on the fastest index instead (c = t % channels) makes neighbouring lanes n floats
// apart: with 32 or more channels one sector each, 32 per request, for both the load and the
// store; with 3 channels 6 to 8 sectors per request (README section 2.1).
__global__ void scale_channels(const float* __restrict__ in, const float* __restrict__ gain,
                               float* __restrict__ out, int channels, int n) {
  const int c = blockIdx.y;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[c * n + i] = in[c * n + i] * gain[c];
}

// threadIdx.x is the column: the 32 lanes of a warp cover 32 neighbouring elements of one row,
// 128 contiguous bytes. With row and column swapped the lanes would be a whole row apart.
__global__ void scale_matrix(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols, float s) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c] * s;
}

// Structure of arrays: each of the six loads and three stores of a warp is 32 consecutive floats
// of one array. In the array-of-structures layout (update_aos in launch.cu) the same loads are 24
// bytes apart per lane.
__global__ void update_soa(Particles p, float dt, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p.x[i] += p.vx[i] * dt;
  p.y[i] += p.vy[i] * dt;
  p.z[i] += p.vz[i] * dt;
}

// 16 bytes per thread: one 128-bit load and store move what four 32-bit ones did, so a warp's
// request covers 512 contiguous bytes and the SMs issue a quarter of the memory instructions
// per byte. Thread n / 4 copies the tail that fills no whole float4. This is the same kernel as
// the step's ceiling (copy_float4_reference in launch.cu): a copy has nothing to take away.
__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int whole = n / 4;
  if (t < whole) {
    reinterpret_cast<float4*>(out)[t] = reinterpret_cast<const float4*>(in)[t];
  } else if (t == whole) {
    for (int i = 4 * whole; i < n; ++i) out[i] = in[i];
  }
}

}  // namespace coalescing
