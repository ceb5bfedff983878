// Wrong on purpose: no bounds check, so the threads of the partial last block write past
// out[n - 1] (and read past in[n - 1]). The output's guard elements must show it.
#include "@NAME@.cuh"

namespace @NAME@ {

__global__ void copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

}  // namespace @NAME@
