// The course-owned launches of lesson 06_coalescing: fixed geometry, so every student's kernel is
// timed under the same grid and block as the copy rung it is compared with. Each copy rung below
// is the step's kernel minus its arithmetic: same threads, same index math, same bounds checks,
// same bytes read and written.
#include <cstdint>

#include "coalescing.cuh"

namespace coalescing {

namespace {

// ---- by_channel ----

// The copy rung of by_channel: the channel on blockIdx.y, the element on threadIdx.x, no gain.
__global__ void copy_channels(const float* __restrict__ in, float* __restrict__ out, int channels,
                              int n) {
  const int c = blockIdx.y;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[c * n + i] = in[c * n + i];
}

cudaError_t check_channels(int channels, int n) {
  if (channels < 1 || channels > MAX_CHANNELS || n < 1) return cudaErrorInvalidValue;
  if (static_cast<long long>(channels) * n >= (1LL << 31)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

dim3 channels_grid(int channels, int n) {
  return dim3((n + BLOCK_THREADS - 1) / BLOCK_THREADS, channels);
}

// ---- row_major_2d ----

// The copy rung of row_major_2d: threadIdx.x along the row, no scale.
__global__ void copy_matrix(const float* __restrict__ in, float* __restrict__ out, int rows,
                            int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[r * cols + c] = in[r * cols + c];
}

cudaError_t check_matrix(int rows, int cols) {
  if (rows < 1 || cols < 1) return cudaErrorInvalidValue;
  if ((rows + BLOCK_Y - 1) / BLOCK_Y > 65535) return cudaErrorInvalidValue;  // gridDim.y limit
  if (static_cast<long long>(rows) * cols >= (1LL << 31)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

dim3 matrix_grid(int rows, int cols) {
  return dim3((cols + BLOCK_X - 1) / BLOCK_X, (rows + BLOCK_Y - 1) / BLOCK_Y);
}

// ---- soa_update ----

// The copy rung of soa_update. A copy rung must move exactly the update's bytes (read x, y, z,
// vx, vy, vz; write x, y, z: 36 bytes per particle) under the same geometry, without the update's
// arithmetic. A plain copy cannot do that: writing x[i] = vx[i] never reads x, and a load whose
// value is unused is removed by the compiler. So each position is replaced by its bits XOR its
// velocity's bits: one integer instruction per field in place of the update's multiply-add, both
// loads needed, no floating-point work, and the in-place result stays bounded however often the
// timing loop runs it (twice restores the original arrays). The values are meaningless; only the
// traffic counts.
__global__ void copy_particles_soa(Particles p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p.x[i] = __int_as_float(__float_as_int(p.x[i]) ^ __float_as_int(p.vx[i]));
  p.y[i] = __int_as_float(__float_as_int(p.y[i]) ^ __float_as_int(p.vy[i]));
  p.z[i] = __int_as_float(__float_as_int(p.z[i]) ^ __float_as_int(p.vz[i]));
}

// The array-of-structures "before" version of the particle update (the lesson's section 3). A
// warp's loads of p[i].x are 24 bytes apart, so each load instruction spans 768 bytes; the other
// fields ride along in the same sectors and are used by the following loads, so the waste here is
// in requests and partial-sector writes more than in DRAM bytes.
__global__ void update_aos(Particle* __restrict__ p, float dt, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p[i].x += p[i].vx * dt;
  p[i].y += p[i].vy * dt;
  p[i].z += p[i].vz * dt;
}

cudaError_t check_particles(int n) {
  return n < 1 ? cudaErrorInvalidValue : cudaSuccess;
}

unsigned particles_grid(int n) {
  return static_cast<unsigned>((n + static_cast<long long>(BLOCK_THREADS) - 1) / BLOCK_THREADS);
}

// ---- vector_copy ----

// The ceiling of vector_copy: thread t copies floats 4t .. 4t + 3 as one float4; thread n / 4
// copies the 0 to 3 floats left past the last whole group, one by one. (Indices stay below n:
// 4 * t is formed only for t <= n / 4, so it cannot overflow an int.)
__global__ void copy_float4_reference(const float* __restrict__ in, float* __restrict__ out,
                                      int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int whole = n / 4;  // groups of 4 floats entirely below n
  if (t < whole) {
    reinterpret_cast<float4*>(out)[t] = reinterpret_cast<const float4*>(in)[t];
  } else if (t == whole) {
    for (int i = 4 * whole; i < n; ++i) out[i] = in[i];
  }
}

cudaError_t check_float4(const float* in, const float* out, int n) {
  const auto misaligned = [](const float* p) { return reinterpret_cast<uintptr_t>(p) % 16 != 0; };
  if (n < 1 || misaligned(in) || misaligned(out)) return cudaErrorInvalidValue;
  return cudaSuccess;
}

unsigned float4_grid(int n) {
  const long long groups = (n + 3LL) / 4;
  return static_cast<unsigned>((groups + BLOCK_THREADS - 1) / BLOCK_THREADS);
}

}  // namespace

cudaError_t launch_scale_channels(const float* in, const float* gain, float* out, int channels,
                                  int n, cudaStream_t stream) {
  if (cudaError_t err = check_channels(channels, n); err != cudaSuccess) return err;
  scale_channels<<<channels_grid(channels, n), BLOCK_THREADS, 0, stream>>>(in, gain, out, channels,
                                                                           n);
  return cudaGetLastError();
}

cudaError_t launch_copy_channels(const float* in, float* out, int channels, int n,
                                 cudaStream_t stream) {
  if (cudaError_t err = check_channels(channels, n); err != cudaSuccess) return err;
  copy_channels<<<channels_grid(channels, n), BLOCK_THREADS, 0, stream>>>(in, out, channels, n);
  return cudaGetLastError();
}

cudaError_t launch_scale_matrix(const float* in, float* out, int rows, int cols, float s,
                                cudaStream_t stream) {
  if (cudaError_t err = check_matrix(rows, cols); err != cudaSuccess) return err;
  scale_matrix<<<matrix_grid(rows, cols), dim3(BLOCK_X, BLOCK_Y), 0, stream>>>(in, out, rows, cols,
                                                                               s);
  return cudaGetLastError();
}

cudaError_t launch_copy_matrix(const float* in, float* out, int rows, int cols,
                               cudaStream_t stream) {
  if (cudaError_t err = check_matrix(rows, cols); err != cudaSuccess) return err;
  copy_matrix<<<matrix_grid(rows, cols), dim3(BLOCK_X, BLOCK_Y), 0, stream>>>(in, out, rows, cols);
  return cudaGetLastError();
}

cudaError_t launch_update_soa(Particles p, float dt, int n, cudaStream_t stream) {
  if (cudaError_t err = check_particles(n); err != cudaSuccess) return err;
  update_soa<<<particles_grid(n), BLOCK_THREADS, 0, stream>>>(p, dt, n);
  return cudaGetLastError();
}

cudaError_t launch_copy_particles_soa(Particles p, int n, cudaStream_t stream) {
  if (cudaError_t err = check_particles(n); err != cudaSuccess) return err;
  copy_particles_soa<<<particles_grid(n), BLOCK_THREADS, 0, stream>>>(p, n);
  return cudaGetLastError();
}

cudaError_t launch_update_aos(Particle* p, float dt, int n, cudaStream_t stream) {
  if (cudaError_t err = check_particles(n); err != cudaSuccess) return err;
  update_aos<<<particles_grid(n), BLOCK_THREADS, 0, stream>>>(p, dt, n);
  return cudaGetLastError();
}

cudaError_t launch_copy_float4(const float* in, float* out, int n, cudaStream_t stream) {
  if (cudaError_t err = check_float4(in, out, n); err != cudaSuccess) return err;
  copy_float4<<<float4_grid(n), BLOCK_THREADS, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

cudaError_t launch_copy_float4_reference(const float* in, float* out, int n, cudaStream_t stream) {
  if (cudaError_t err = check_float4(in, out, n); err != cudaSuccess) return err;
  copy_float4_reference<<<float4_grid(n), BLOCK_THREADS, 0, stream>>>(in, out, n);
  return cudaGetLastError();
}

}  // namespace coalescing
