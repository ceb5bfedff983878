// Wrong-kernel submissions are graded only on the step the manifest names; the kernels of the
// other steps are empty (they are never graded in that variant).
#pragma once
#include "transpose.cuh"

#define UNUSED_TRANSPOSE_KERNEL(name) \
  __global__ void name(const float* __restrict__, float* __restrict__, int, int) {}
