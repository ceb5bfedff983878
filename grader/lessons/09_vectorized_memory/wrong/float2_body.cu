// Wrong on purpose (slow, not incorrect): the nearest miss of step scale_view, float2 where the
// step asks for float4. A scalar head of at most one float up to the first 8-byte boundary, a
// float2 body and a scalar tail of at most one float: right on every view, and only 8-byte
// alignment needed. The body is a grid-stride loop over the step's grid with two pairs per thread
// per pass, both loads before the stores, so every warp access is 256 contiguous bytes and each
// thread keeps 16 bytes in flight, as the float4 body does; but every byte costs twice its memory
// instructions. In the calibration probe one float2 per thread reached 90.3% of cudaMemcpyAsync on
// aligned views (calibration.md); the gate must sit above this kernel.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  // Floats before the first 8-byte boundary: 0 or 1 (out has the same misalignment as in).
  const int head = min(static_cast<int>(reinterpret_cast<std::uintptr_t>(in) % 8 / 4), n);
  const unsigned pairs = static_cast<unsigned>(n - head) / 2;
  const int tail = head + 2 * static_cast<int>(pairs);  // n - tail is 0 or 1
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == 0 && head == 1) out[0] = a * in[0];
  if (t == 0 && tail < n) out[tail] = a * in[tail];

  const float2* in2 = reinterpret_cast<const float2*>(in + head);
  float2* out2 = reinterpret_cast<float2*>(out + head);
  // pairs < 2^30 and the grid has fewer than n / 4 + 256 threads: j + 2 * threads < 2^32.
  for (unsigned j = t; j < pairs; j += 2 * threads) {
    const bool second = j + threads < pairs;
    const float2 v0 = in2[j];
    float2 v1 = v0;
    if (second) v1 = in2[j + threads];
    out2[j] = make_float2(a * v0.x, a * v0.y);
    if (second) out2[j + threads] = make_float2(a * v1.x, a * v1.y);
  }
}
}  // namespace vectorized_memory
