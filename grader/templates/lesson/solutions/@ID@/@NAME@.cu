// Lesson @ID@, completed.
#include "@NAME@.cuh"

namespace @NAME@ {

// One element per thread; the bounds check keeps the partial last block inside the arrays.
__global__ void copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

}  // namespace @NAME@
