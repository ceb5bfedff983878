// Wrong on purpose (imprecise): the README's first mix_channels, one thread per pixel, with M held
// in 32 __half2 registers instead of 64 floats to get under the register limit, and the products
// and sums done in half pairs (__hfma2). Exact on the small whole numbers of most cases (every
// entry, product and partial sum is a whole number below 2,048, exact in half); on real values
// each value keeps 11 of its 24 bits, and magnitudes past 65,504 become infinite.
#include <cuda_fp16.h>

#include "unused_kernels.cuh"

namespace occupancy_profiling {
__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n) {
  __half2 mh[CHANNELS * CHANNELS / 2];  // should be float
#pragma unroll
  for (int k = 0; k < CHANNELS * CHANNELS / 2; ++k)
    mh[k] = __floats2half2_rn(m[2 * k], m[2 * k + 1]);
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; p < n;
       p += stride) {
    const float4* v = reinterpret_cast<const float4*>(in + p * CHANNELS);
    const float4 a = v[0], b = v[1];
    const float x[CHANNELS] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    float o[CHANNELS];
#pragma unroll
    for (int r = 0; r < CHANNELS; ++r) {
      __half2 s = __float2half2_rn(0.0f);
#pragma unroll
      for (int k = 0; k < CHANNELS; k += 2)
        s = __hfma2(mh[(r * CHANNELS + k) / 2], __floats2half2_rn(x[k], x[k + 1]), s);
      o[r] = __low2float(s) + __high2float(s);
    }
    float4* w = reinterpret_cast<float4*>(out + p * CHANNELS);
    w[0] = make_float4(o[0], o[1], o[2], o[3]);
    w[1] = make_float4(o[4], o[5], o[6], o[7]);
  }
}
SOLUTION_CHOOSE_BLOCK_SIZE
}  // namespace occupancy_profiling
