/// @file coalescing.cuh
/// @brief Lesson 06_coalescing: the kernels a student writes and the launchers the course owns.
///
/// Three memory-bound kernels, each with one multiply or one multiply-add per element, so that
/// their speed is decided by how a warp's 32 lanes map onto addresses:
///
/// - step `by_channel`: planar multi-channel data scaled by a per-channel gain. The channel is on
///   blockIdx.y and the element on threadIdx.x, so a warp reads 32 consecutive floats of one
///   channel instead of one float from each of 32 channels.
/// - step `row_major_2d`: a row-major matrix scaled by a constant, with a 2-D block whose
///   threadIdx.x walks along a row (the fix for the swapped row/column bug).
/// - step `soa_update`: a particle update x += vx * dt (and y, z) on a structure of arrays, so
///   that each field a warp loads is one contiguous run of 128 bytes.
/// - step `vector_copy` (optional, the lab's float4 extension): a plain copy with 16 bytes per
///   thread (one float4 load and store) instead of 4, and a scalar tail for the last n % 4
///   elements. Its ceiling is the course's own float4 copy with the same grid and tail.
///
/// Every launch is course-owned (lessons/06_coalescing/launch.cu): the student writes kernel
/// bodies only. Each step is timed against its own "copy rung", a copy kernel with exactly the
/// step's grid, block and bounds checks that moves the same bytes without the arithmetic.
///
/// Units: element counts and indices are `int` (every array holds fewer than 2^31 elements);
/// pointers are device pointers to `float`; arrays that are read and arrays that are written
/// never overlap, except the in-place particle positions of `soa_update`.
#pragma once

#include <cuda_runtime.h>

/// Lesson 06_coalescing: kernels (student) and launchers (course).
namespace coalescing {

/// Threads per block of the 1-D launches (`by_channel`, `soa_update`), along threadIdx.x.
constexpr int BLOCK_THREADS = 256;
/// threadIdx.x extent of the 2-D launch (`row_major_2d`): one warp spans 32 columns of a row.
constexpr int BLOCK_X = 32;
/// threadIdx.y extent of the 2-D launch: 8 rows per block, 256 threads in all.
constexpr int BLOCK_Y = 8;
/// Largest channel count of `by_channel`: the channel is blockIdx.y, and gridDim.y is at most
/// 65535 (so blockIdx.y <= 65534).
constexpr int MAX_CHANNELS = 65535;

/// Particles as a structure of arrays (SoA): each field is its own array of `n` floats, element i
/// of every array belongs to particle i. Positions are updated in place; velocities are read only.
/// The six arrays must not overlap.
struct Particles {
  float* x;         ///< x positions, read and written (device memory, n floats)
  float* y;         ///< y positions, read and written (device memory, n floats)
  float* z;         ///< z positions, read and written (device memory, n floats)
  const float* vx;  ///< x velocities, read only (device memory, n floats)
  const float* vy;  ///< y velocities, read only (device memory, n floats)
  const float* vz;  ///< z velocities, read only (device memory, n floats)
};

/// One particle as an array of structures (AoS): 6 floats, 24 bytes, fields side by side. The
/// lesson's "before" layout; not graded (see launch_update_aos).
struct Particle {
  float x;   ///< x position
  float y;   ///< y position
  float z;   ///< z position
  float vx;  ///< x velocity
  float vy;  ///< y velocity
  float vz;  ///< z velocity
};

// ---- Kernels the student writes (exercises/06_coalescing/coalescing.cu) ----

/// Step `by_channel`: out[c * n + i] = in[c * n + i] * gain[c] for every channel c < channels
/// and element i < n.
///
/// Layout: planar ("channel-major"): channel c occupies in[c * n] .. in[c * n + n - 1], and out
/// has the same layout. Launch: BLOCK_THREADS threads per block, a grid of
/// ceil(n / BLOCK_THREADS) x channels blocks: blockIdx.y is the channel, blockIdx.x * blockDim.x +
/// threadIdx.x the element. The last block of each channel is partial when n is not a multiple of
/// BLOCK_THREADS: check bounds.
/// @param in       channels x n inputs, device memory
/// @param gain     `channels` gains, device memory
/// @param out      channels x n outputs, device memory, same layout as `in`
/// @param channels number of channels, 1 .. MAX_CHANNELS
/// @param n        elements per channel, >= 1; channels * n < 2^31
__global__ void scale_channels(const float* __restrict__ in, const float* __restrict__ gain,
                               float* __restrict__ out, int channels, int n);

/// Step `row_major_2d`: out[r * cols + c] = in[r * cols + c] * s for every row r < rows and
/// column c < cols.
///
/// Layout: row-major, element (r, c) at r * cols + c, for both `in` and `out`. Launch: blocks of
/// BLOCK_X x BLOCK_Y threads, a grid of ceil(cols / BLOCK_X) x ceil(rows / BLOCK_Y) blocks:
/// threadIdx.x / blockIdx.x run along the columns, threadIdx.y / blockIdx.y along the rows.
/// Blocks on the right and bottom edges may be partial: check bounds.
/// @param in   rows x cols input, row-major, device memory
/// @param out  rows x cols output, row-major, device memory
/// @param rows rows, 1 .. 65535 * BLOCK_Y
/// @param cols columns, >= 1; rows * cols < 2^31
/// @param s    scale factor
__global__ void scale_matrix(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols, float s);

/// Step `soa_update`: one time step of free motion, in place, for particles i < n:
/// x[i] += vx[i] * dt, y[i] += vy[i] * dt, z[i] += vz[i] * dt.
///
/// Launch: BLOCK_THREADS threads per block, ceil(n / BLOCK_THREADS) blocks, one particle per
/// thread; the last block may be partial. The result may be computed with or without a fused
/// multiply-add (the tests accept either rounding), but each position must be updated exactly
/// once and the velocities must not change.
/// @param p  the six arrays (see Particles)
/// @param dt time step, same units as position / velocity
/// @param n  number of particles, >= 1
__global__ void update_soa(Particles p, float dt, int n);

/// Step `vector_copy` (optional): out[i] = in[i] for every i < n, moving 16 bytes per thread.
///
/// Launch: BLOCK_THREADS threads per block, ceil(ceil(n / 4) / BLOCK_THREADS) blocks, so one
/// thread per group of 4 floats: thread t owns in[4t] .. in[4t + 3]. Threads t < n / 4 copy their
/// group as one float4 (a 16-byte load and store); thread n / 4 copies the n % 4 floats left
/// after the last whole group one by one (none when n is a multiple of 4); threads past it do
/// nothing. Both pointers are 16-byte aligned (the launcher checks), so in + 4t may be read as
/// a float4.
/// @param in  n floats, device memory, 16-byte aligned
/// @param out n floats, device memory, 16-byte aligned, not overlapping `in`
/// @param n   number of floats, >= 1
__global__ void copy_float4(const float* __restrict__ in, float* __restrict__ out, int n);

// ---- Launchers the course owns (lessons/06_coalescing/launch.cu) ----
// All launchers are asynchronous on `stream` and return cudaSuccess, cudaErrorInvalidValue when
// a size is outside the documented range (nothing is launched then), or the launch error.

/// Launches the student's scale_channels with the `by_channel` geometry.
/// @return cudaErrorInvalidValue when channels is outside 1 .. MAX_CHANNELS, n < 1, or
///         channels * n >= 2^31
cudaError_t launch_scale_channels(const float* in, const float* gain, float* out, int channels,
                                  int n, cudaStream_t stream = 0);

/// Copy rung of `by_channel`: out[c * n + i] = in[c * n + i], same grid, block and bounds check
/// as launch_scale_channels, no gain. Moves the same 2 * channels * n * 4 bytes. Errors as
/// launch_scale_channels.
cudaError_t launch_copy_channels(const float* in, float* out, int channels, int n,
                                 cudaStream_t stream = 0);

/// Launches the student's scale_matrix with the `row_major_2d` geometry.
/// @return cudaErrorInvalidValue when rows or cols is < 1, rows > 65535 * BLOCK_Y (the grid's y
///         limit), or rows * cols >= 2^31
cudaError_t launch_scale_matrix(const float* in, float* out, int rows, int cols, float s,
                                cudaStream_t stream = 0);

/// Copy rung of `row_major_2d`: out[r * cols + c] = in[r * cols + c], same grid, block and bounds
/// checks as launch_scale_matrix, no scale. Moves the same 2 * rows * cols * 4 bytes. Errors as
/// launch_scale_matrix.
cudaError_t launch_copy_matrix(const float* in, float* out, int rows, int cols,
                               cudaStream_t stream = 0);

/// Launches the student's update_soa with the `soa_update` geometry.
/// @return cudaErrorInvalidValue when n < 1
cudaError_t launch_update_soa(Particles p, float dt, int n, cudaStream_t stream = 0);

/// Copy rung of `soa_update`: same grid, block and bounds check as launch_update_soa; per
/// particle it reads all six floats and writes x, y and z (24 bytes read, 12 written, the same
/// 9 * 4 * n bytes as the update), but with no floating-point arithmetic: each position becomes
/// its bit pattern XOR its velocity's (so running it twice restores the positions). Its
/// results are bit patterns, not physics: use it for timing only. Errors as launch_update_soa.
cudaError_t launch_copy_particles_soa(Particles p, int n, cudaStream_t stream = 0);

/// The lesson's "before" layout, not graded: the same update on an array of structures,
/// p[i].x += p[i].vx * dt (and y, z) for i < n, in place, with the `soa_update` geometry (kernel
/// `update_aos`). It moves the same 9 * 4 * n useful bytes as update_soa, so its speed can be
/// compared with launch_copy_particles_soa on arrays of the same n (calibration, bench).
/// @param p      n particles, device memory
/// @param dt     time step
/// @param n      number of particles, >= 1
/// @param stream stream of the launch
/// @return cudaErrorInvalidValue when n < 1
cudaError_t launch_update_aos(Particle* p, float dt, int n, cudaStream_t stream = 0);

/// Launches the student's copy_float4 with the `vector_copy` geometry.
/// @return cudaErrorInvalidValue when n < 1 or when `in` or `out` is not 16-byte aligned
cudaError_t launch_copy_float4(const float* in, float* out, int n, cudaStream_t stream = 0);

/// Ceiling of `vector_copy`: the course's own float4 copy (kernel `copy_float4_reference`), with
/// exactly copy_float4's grid, block, float4 body and scalar tail. Moves the same 2 * n * 4 bytes.
/// A copy has no arithmetic to take away, so here the rung is the finished kernel itself; the
/// one-float-per-thread copy it improves on is the bench's `float4` table. Errors as
/// launch_copy_float4.
cudaError_t launch_copy_float4_reference(const float* in, float* out, int n,
                                         cudaStream_t stream = 0);

}  // namespace coalescing
