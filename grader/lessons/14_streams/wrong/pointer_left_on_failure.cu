// Wrong on purpose: on a failed allocation *p keeps whatever the caller had in it.
#include "parts.cuh"

namespace streams {
cudaError_t pinned_alloc(float** p, std::size_t n) {
  if (n == 0) {
    *p = nullptr;
    return cudaSuccess;
  }
  float* q = nullptr;
  const cudaError_t err = cudaMallocHost(reinterpret_cast<void**>(&q), n * sizeof(float));
  if (err == cudaSuccess) *p = q;  // on failure *p is left as it was
  return err;
}
cudaError_t pinned_free(float* p) {
  return cudaFreeHost(p);
}
UNWRITTEN_PIPELINE
}  // namespace streams
