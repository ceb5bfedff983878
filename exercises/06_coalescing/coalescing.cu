// Lesson 06_coalescing: write the three kernel bodies below, then run `./build/grader
// 06_coalescing`.
//
// Every kernel here does one multiply (or multiply-add) per element: its speed is decided by the
// addresses a warp's 32 lanes touch together. Make consecutive threadIdx.x values touch
// consecutive floats. The launches are in lessons/06_coalescing/launch.cu and are not yours to
// change; shapes, layouts and steps are documented in lessons/06_coalescing/coalescing.cuh and
// README.md.
//
//   by_channel:   grid ceil(n / 256) x channels, 256 threads; in/out are channels x n, planar:
//                 element i of channel c at [c * n + i]
//   row_major_2d: grid ceil(cols / 32) x ceil(rows / 8), blocks of 32 x 8 threads; in/out are
//                 rows x cols, row-major: element (r, c) at [r * cols + c]
//   soa_update:   grid ceil(n / 256), 256 threads; one particle per thread, in place
//
// The last block of a dimension is usually partial: check bounds before every load and store.
#include "coalescing.cuh"

namespace coalescing {

__global__ void scale_channels(const float* __restrict__ in, const float* __restrict__ gain,
                               float* __restrict__ out, int channels, int n) {
  // TODO(by_channel): the grid is ceil(n / 256) x channels blocks of 256 threads. Choose which
  // index gives the channel and which the element so that the 32 lanes of a warp read 32
  // neighbouring floats of one channel; skip elements past n; write out = in * gain[channel].
}

__global__ void scale_matrix(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols, float s) {
  // TODO(row_major_2d): compute the column from the x indices and the row from the y indices
  // (which of the two must threadIdx.x be so that a warp reads 128 contiguous bytes?); if (r, c)
  // is inside the matrix, write out[r * cols + c] = in[r * cols + c] * s.
}

__global__ void update_soa(Particles p, float dt, int n) {
  // TODO(soa_update): one particle per thread; for a particle i < n, add vx[i] * dt to x[i],
  // vy[i] * dt to y[i] and vz[i] * dt to z[i]. The velocities are read only.
}

}  // namespace coalescing
