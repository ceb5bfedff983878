/// @file register_rung.cuh
/// @brief Lesson 15's register-capped kernel, owned by the course: the bench's rung
/// (lessons/15_occupancy_profiling/bench.cu) and the wrong kernels matrix_in_registers and
/// launch_bounds_spill (grader/lessons/15_occupancy_profiling/wrong/) are this one text.
#pragma once

#include "occupancy.cuh"

/// The README's first mix_channels (section 2), as kernel `name` with `bounds` before it (empty,
/// or a __launch_bounds__): one thread per pixel, all 64 entries of M loaded into registers before
/// the grid-stride loop. Right, but 96 registers per thread on sm_90 (docs/measured/compiler.md).
#define MATRIX_IN_REGISTERS_KERNEL(name, bounds)                                               \
  __global__ void bounds name(const float* __restrict__ in, float* __restrict__ out,           \
                              const float* __restrict__ m, long long n) {                      \
    float mr[CHANNELS * CHANNELS];                                                             \
    _Pragma("unroll") for (int k = 0; k < CHANNELS * CHANNELS; ++k) mr[k] = m[k];              \
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;                   \
    for (long long p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; p < n;   \
         p += stride) {                                                                        \
      const float4* v = reinterpret_cast<const float4*>(in + p * CHANNELS);                    \
      const float4 a = v[0], b = v[1];                                                         \
      const float x[CHANNELS] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};                      \
      float o[CHANNELS];                                                                       \
      _Pragma("unroll") for (int r = 0; r < CHANNELS; ++r) {                                   \
        float s = 0;                                                                           \
        _Pragma("unroll") for (int k = 0; k < CHANNELS; ++k) s += mr[r * CHANNELS + k] * x[k]; \
        o[r] = s;                                                                              \
      }                                                                                        \
      float4* w = reinterpret_cast<float4*>(out + p * CHANNELS);                               \
      w[0] = make_float4(o[0], o[1], o[2], o[3]);                                              \
      w[1] = make_float4(o[4], o[5], o[6], o[7]);                                              \
    }                                                                                          \
  }
