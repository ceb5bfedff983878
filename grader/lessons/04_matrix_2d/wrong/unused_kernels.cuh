// Wrong-kernel submissions are graded only on the step the manifest names; the kernel of the
// other step is empty (it is never graded in that variant).
#pragma once
#include "matrix_2d.cuh"

#define UNUSED_SCALE_ADD_DENSE                                                                     \
  __global__ void scale_add_dense(const float* __restrict__, float* __restrict__, int, int, float, \
                                  float) {}
#define UNUSED_SCALE_ADD_PITCHED                                                                 \
  __global__ void scale_add_pitched(const float* __restrict__, std::size_t, float* __restrict__, \
                                    std::size_t, int, int, float, float) {}
