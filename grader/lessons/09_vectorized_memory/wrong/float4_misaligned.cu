// Wrong on purpose: float4 vectors counted from the view's first element, with no head. Right
// when the view starts on a 16-byte boundary; on a view 1-3 floats past one, the first vector
// load is misaligned and faults (misaligned address, a sticky error). The grader must report it
// against that case and still grade the others in a fresh process.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  const int body = n / 4, tail_start = 4 * body;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n - tail_start) out[tail_start + t] = a * in[tail_start + t];
  const float4* in4 = reinterpret_cast<const float4*>(in);  // aligned only when in % 16 == 0
  float4* out4 = reinterpret_cast<float4*>(out);
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
