// Wrong on purpose: pinned_free frees nothing. Every buffer stays page-locked.
#include "parts.cuh"

namespace streams {
RIGHT_PINNED_ALLOC
cudaError_t pinned_free(float*) {
  return cudaSuccess;  // forgotten: cudaFreeHost
}
UNWRITTEN_PIPELINE
}  // namespace streams
