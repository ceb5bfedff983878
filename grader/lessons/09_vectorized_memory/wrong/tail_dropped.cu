// Wrong on purpose: the head and the float4 body, but no tail: the (n - head) % 4 floats after
// the last whole vector are never written.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  const int past = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) % 16 / 4);
  const int head = min((4 - past) % 4, n);
  const int body = (n - head) / 4;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < head) out[t] = a * in[t];
  const float4* in4 = reinterpret_cast<const float4*>(in + head);
  float4* out4 = reinterpret_cast<float4*>(out + head);
  const int first = blockIdx.x * VIEW_THREADS * VECTORS_PER_THREAD + threadIdx.x;
  for (int k = 0; k < VECTORS_PER_THREAD; ++k) {
    const int j = first + k * VIEW_THREADS;
    if (j < body) {
      const float4 v = in4[j];
      out4[j] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    }
  }
}
}  // namespace vectorized_memory
