#include "kernels.cuh"

namespace bench {

namespace {

// Lane i reads element i * stride: from stride 8 on (floats) every lane has its own sector.
__global__ void stride_copy(const float* __restrict__ in, float* __restrict__ out, long long n,
                            int stride) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

// A warp reads 32 .x fields 12 bytes apart: 384 bytes of sectors for 128 useful bytes.
__global__ void aos_load_x(const Point3* __restrict__ points, float* __restrict__ out,
                           long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = points[i].x;
}

// The same field as its own array: 4 sectors per warp, nothing wasted.
__global__ void soa_load_x(const float* __restrict__ xs, float* __restrict__ out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = xs[i];
}

unsigned blocks(long long n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

}  // namespace

cudaError_t launch_stride_copy(const float* in, float* out, long long n, int stride,
                               cudaStream_t stream) {
  stride_copy<<<blocks(n), kThreads, 0, stream>>>(in, out, n, stride);
  return cudaGetLastError();
}

cudaError_t launch_aos_load_x(const Point3* points, float* out, long long n, cudaStream_t stream) {
  aos_load_x<<<blocks(n), kThreads, 0, stream>>>(points, out, n);
  return cudaGetLastError();
}

cudaError_t launch_soa_load_x(const float* xs, float* out, long long n, cudaStream_t stream) {
  soa_load_x<<<blocks(n), kThreads, 0, stream>>>(xs, out, n);
  return cudaGetLastError();
}

}  // namespace bench
