// Wrong on purpose: checks the allocations, the copies in and the launch, then neither
// synchronizes nor checks the copy back or the frees. A kernel that fails after a successful
// launch (the test's trap) is reported by the copy back, which this code ignores: it returns
// cudaSuccess. Caught by the test that makes the kernel fail.
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
  if (err == cudaSuccess) err = launch_add(d_a, d_b, d_c, n);
  if (err == cudaSuccess) cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);  // result ignored
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_c);
  return err;
}
}  // namespace vector_add
