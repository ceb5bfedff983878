// Wrong on purpose: the host code launches the kernel itself, add<<<ceil(n / 256), 256>>>,
// instead of going through launch_add, and has no early return for n = 0. For n = 0 that is a
// grid of 0 blocks, which the runtime refuses (cudaErrorInvalidConfiguration, reported by
// cudaGetLastError()), so vector_add fails where there was nothing to do. (Before the launch it
// also asks cudaMalloc for 0 bytes, whose result is not documented: if that call fails first, the
// error differs, and the test still fails.) Right for every n >= 1.
#include "unused_parts.cuh"

namespace vector_add {
RIGHT_ADD_KERNEL

cudaError_t vector_add(const float* a, const float* b, float* c, int n) {
  if (n < 0) return cudaErrorInvalidValue;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  cudaError_t err = cudaMalloc(&d_a, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_b, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_c, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    add<<<(n + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS>>>(d_a, d_b, d_c, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
  for (float* p : {d_a, d_b, d_c}) {
    const cudaError_t freed = cudaFree(p);
    if (err == cudaSuccess) err = freed;
  }
  return err;
}
}  // namespace vector_add
