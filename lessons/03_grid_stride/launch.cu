// The course-owned launches of lesson 03_grid_stride. The caller chooses the grid (that is the
// point of the lesson: the kernel must be right under any grid); the block is fixed at
// BLOCK_THREADS threads. The copy rung below is the solution's loop minus its arithmetic.
#include "grid_stride.cuh"

namespace grid_stride {

namespace {

// The copy rung of step grid_stride: the solution's grid-stride loop, 64-bit index and stride,
// same bytes. A copy rung must move exactly what SAXPY moves under the same geometry: read x[i]
// and y[i], write y[i], 12 bytes per element. A plain copy y[i] = x[i] would never read y, and a
// load whose value is unused is removed by the compiler, so the copy would move 8 bytes, not 12.
// Replacing y's bits with their XOR with x's bits needs both loads, costs one integer instruction
// where SAXPY has one fused multiply-add, and keeps the in-place array bounded however often the
// timing loop runs it (twice restores it). The values are meaningless; only the traffic counts.
__global__ void copy_grid_stride(long long n, const float* __restrict__ x, float* __restrict__ y) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    y[i] = __int_as_float(__float_as_int(y[i]) ^ __float_as_int(x[i]));
}

cudaError_t check(long long n, int blocks) {
  return n < 1 || blocks < 1 ? cudaErrorInvalidValue : cudaSuccess;
}

}  // namespace

cudaError_t launch_saxpy(long long n, float a, const float* x, float* y, int blocks,
                         cudaStream_t stream) {
  if (cudaError_t err = check(n, blocks); err != cudaSuccess) return err;
  saxpy<<<blocks, BLOCK_THREADS, 0, stream>>>(n, a, x, y);
  return cudaGetLastError();
}

cudaError_t launch_copy_grid_stride(long long n, const float* x, float* y, int blocks,
                                    cudaStream_t stream) {
  if (cudaError_t err = check(n, blocks); err != cudaSuccess) return err;
  copy_grid_stride<<<blocks, BLOCK_THREADS, 0, stream>>>(n, x, y);
  return cudaGetLastError();
}

cudaError_t multiprocessor_count(int* count) {
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  int sms = 0;
  const cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess) *count = sms;
  return err;
}

}  // namespace grid_stride
