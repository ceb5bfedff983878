// Wrong on purpose: pageable memory. Right results; the course's copies through it are staged by
// the driver and run at a fraction of the page-locked speed (step pinned's gate).
#include <new>

#include "parts.cuh"

namespace streams {
cudaError_t pinned_alloc(float** p, std::size_t n) {
  *p = nullptr;
  if (n == 0) return cudaSuccess;
  *p = new (std::nothrow) float[n];
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t pinned_free(float* p) {
  delete[] p;
  return cudaSuccess;
}
UNWRITTEN_PIPELINE
}  // namespace streams
