// Wrong on purpose: pinned_free frees nothing. Every buffer stays page-locked.
#include "parts.cuh"

namespace streams {
cudaError_t pinned_alloc(float** p, std::size_t n) {
  *p = nullptr;
  if (n == 0) return cudaSuccess;
  const cudaError_t err = cudaMallocHost(reinterpret_cast<void**>(p), n * sizeof(float));
  if (err != cudaSuccess) *p = nullptr;
  return err;
}
cudaError_t pinned_free(float*) {
  return cudaSuccess;  // forgotten: cudaFreeHost
}
UNWRITTEN_PIPELINE
}  // namespace streams
