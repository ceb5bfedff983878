// Wrong on purpose: the add without its bounds check. Whenever n is not a multiple of 256, the
// threads of the last block past c[n-1] read past a and b (into their guard elements) and write
// past c; the poisoned guard elements after c must show it ("past c[n-1]").
#include "unused_parts.cuh"

namespace vector_add {
UNWRITTEN_VECTOR_ADD

__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
}  // namespace vector_add
