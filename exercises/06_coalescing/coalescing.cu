// Lesson 06_coalescing: write the three kernel bodies below, then run `./build/grader
// 06_coalescing`. The fourth, copy_float4, is an optional extension (the lesson passes without
// it).
//
// Every kernel here does at most one multiply (or multiply-add) per element: its speed is
// decided by the addresses a warp's 32 lanes touch together. Make consecutive threadIdx.x values
// touch consecutive floats. The launches are in lessons/06_coalescing/launch.cu and are not
// yours to change; shapes, layouts and steps are documented in lessons/06_coalescing/coalescing.cuh
// and README.md.
//
//   by_channel:   grid ceil(n / 256) x channels, 256 threads; in/out are channels x n, planar:
//                 element i of channel c at [c * n + i]
//   row_major_2d: grid ceil(cols / 32) x ceil(rows / 8), blocks of 32 x 8 threads; in/out are
//                 rows x cols, row-major: element (r, c) at [r * cols + c]
//   soa_update:   grid ceil(n / 256), 256 threads; one particle per thread, in place
//   vector_copy:  (optional extension) grid ceil(ceil(n / 4) / 256), 256 threads; thread t
//                 copies floats 4t .. 4t + 3; in and out are 16-byte aligned
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

__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n) {
  // TODO(vector_copy), optional: thread t copies the group of 4 floats starting at in[4 * t]
  // with one 16-byte float4 load and one float4 store (in and out are 16-byte aligned, so they
  // may be read as const float4* and float4*). When n is not a multiple of 4, the last 1 to 3
  // floats belong to no whole group: let exactly one thread copy them one by one.
}

}  // namespace coalescing
