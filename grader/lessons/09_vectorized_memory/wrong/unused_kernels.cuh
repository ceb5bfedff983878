// Wrong-kernel submissions are graded only on the step the manifest names; the kernel of the
// other step is empty (it is never graded in that variant).
#pragma once
#include <cstdint>

#include "vectorized_memory.cuh"

#define UNUSED_SCALE_VIEW \
  __global__ void scale_view(const float* __restrict__, float* __restrict__, int, float) {}

#define UNUSED_TRANSPOSE_64 \
  __global__ void transpose_64(const float* __restrict__, float* __restrict__, int, int) {}
