// Wrong on purpose: the right host code, except that it ignores what launch_add returns. A
// refused launch (a configuration error) is not sticky and is not reported by the synchronization
// that follows, so it returns cudaSuccess with c holding whatever device memory held. Caught by
// the test that makes the course's launcher fail.
#include "unused_parts.cuh"

namespace vector_add {
RIGHT_ADD_KERNEL

cudaError_t vector_add(const float* a, const float* b, float* c, int n) {
  if (n < 0) return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  cudaError_t err = cudaMalloc(&d_a, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_b, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_c, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    launch_add(d_a, d_b, d_c, n);  // the launch error is dropped here
    err = cudaDeviceSynchronize();
  }
  if (err == cudaSuccess) err = cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
  for (float* p : {d_a, d_b, d_c}) {
    const cudaError_t freed = cudaFree(p);
    if (err == cudaSuccess) err = freed;
  }
  return err;
}
}  // namespace vector_add
