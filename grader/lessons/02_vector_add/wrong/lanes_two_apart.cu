// Wrong on purpose (slow, not incorrect): the nearest miss of step `kernel`. One element per
// thread and the bounds check, as the step asks, but a different map inside each block: thread t
// of block b takes element b * 256 + 2 * (t % 128) + t / 128, so warps 0-3 take the block's even
// elements and warps 4-7 its odd ones. Every element below n is taken exactly once (the map is a
// permutation of the block's 256 elements, and the check drops those past n). The lanes of a warp
// are 2 floats (8 bytes) apart instead of 1: each load and store spans 256 bytes, 8 sectors for 128
// useful bytes, half of every sector wasted per request; the other half belongs to a warp of the
// same block four warps on, and may still be in L1 when it reads it. Far nearer the solution than
// `transposed_map` (lanes 2^18 floats apart): the gate must sit above it.
#include "unused_parts.cuh"

namespace vector_add {
UNWRITTEN_VECTOR_ADD

__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int n) {
  const unsigned half = BLOCK_THREADS / 2;
  // blockIdx.x * 256 + 255 <= n + 254 < 2^31 (n <= MAX_N): the unsigned sum fits in an int.
  const int i =
      static_cast<int>(blockIdx.x * blockDim.x + 2 * (threadIdx.x % half) + threadIdx.x / half);
  if (i < n) c[i] = a[i] + b[i];
}
}  // namespace vector_add
