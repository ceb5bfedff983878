// Wrong on purpose: the right host code, except that it never frees the device copy of b. The
// results are right; device memory in use grows by one array of n floats per call, which the
// leak check must see (16 MiB per call at n = 2^22 + 1), also after a failed launch.
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
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
  for (float* p : {d_a, d_c}) {  // d_b forgotten
    const cudaError_t freed = cudaFree(p);
    if (err == cudaSuccess) err = freed;
  }
  return err;
}
}  // namespace vector_add
