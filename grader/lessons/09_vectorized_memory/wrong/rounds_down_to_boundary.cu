// Wrong on purpose: instead of a scalar head, thread 0 moves the whole 16-byte-aligned float4
// that holds the view's first element (the address rounded down to a boundary). Inside the view
// every element is right, but the 1-3 floats before out[0] are overwritten with a * (the floats
// before in[0]): memory the view does not own. Its body and tail are the solution's.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_TRANSPOSE_64

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  const int past = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) % 16 / 4);
  const int head = min((4 - past) % 4, n);
  const int body = (n - head) / 4;
  const int tail_start = head + 4 * body;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t == 0 && head > 0) {  // the aligned float4 at in - past covers in[-past] .. in[3 - past]
    const float4 v = *reinterpret_cast<const float4*>(in - past);
    const float4 w = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    if (head == 4 - past) {  // the whole rest of that float4 is inside the view
      *reinterpret_cast<float4*>(out - past) = w;
    } else {  // a view shorter than its head: elements one by one, still starting before out[0]
      const float c[4] = {w.x, w.y, w.z, w.w};
      for (int k = 0; k < past + head; ++k) out[k - past] = c[k];
    }
  }
  if (t < n - tail_start) out[tail_start + t] = a * in[tail_start + t];
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
