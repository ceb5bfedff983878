// Wrong-kernel submissions are graded only on the step the manifest names; the kernels of the
// other steps are empty (they are never graded in that variant).
#pragma once
#include "coalescing.cuh"

#define UNUSED_SCALE_CHANNELS                                                          \
  __global__ void scale_channels(const float* __restrict__, const float* __restrict__, \
                                 float* __restrict__, int, int) {}
#define UNUSED_SCALE_MATRIX \
  __global__ void scale_matrix(const float* __restrict__, float* __restrict__, int, int, float) {}
#define UNUSED_UPDATE_SOA \
  __global__ void update_soa(Particles, float, int) {}
#define UNUSED_COPY_FLOAT4 \
  __global__ void copy_float4(const float* __restrict__, float* __restrict__, int) {}
