// Wrong on purpose: a correct add whose thread-to-element map is transposed. With G =
// ceil(n / 256) blocks, thread threadIdx.x of block blockIdx.x takes element
// threadIdx.x * G + blockIdx.x (element i goes to thread (i % G) * 256 + i / G). Every i < n is
// taken exactly once, for every n: i / G < 256 because n <= 256 * G. But the 32 lanes of a warp
// are G floats apart (2^18 floats, 1 MiB, on the 2^26-element timing shape), so every load and
// store of a warp touches 32 sectors for 128 useful bytes; the other 28 bytes of each sector
// belong to the next blocks, which run on other SMs, at best while the sector is still in L2.
// Correct everywhere, far below the gate.
#include "unused_parts.cuh"

namespace vector_add {
UNWRITTEN_VECTOR_ADD

__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int n) {
  // 256 * G <= n + 255 <= MAX_N + 255 < 2^31: the unsigned product fits in an int.
  const int i = static_cast<int>(threadIdx.x * gridDim.x + blockIdx.x);
  if (i < n) c[i] = a[i] + b[i];
}
}  // namespace vector_add
