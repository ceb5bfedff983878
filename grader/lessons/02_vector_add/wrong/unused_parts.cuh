// Wrong submissions are graded only on the step the manifest names. A `kernel` submission leaves
// the host function unwritten (as the stub does); a `host` submission needs a working kernel,
// since vector_add's results come from it, so it gets the right one.
#pragma once
#include "vector_add.cuh"

// The host function as the stub leaves it (never graded in a `kernel` submission).
#define UNWRITTEN_VECTOR_ADD                                        \
  cudaError_t vector_add(const float*, const float*, float*, int) { \
    return cudaErrorNotYetImplemented;                              \
  }

// The right kernel, for the `host` submissions.
#define RIGHT_ADD_KERNEL                                                        \
  __global__ void add(const float* __restrict__ a, const float* __restrict__ b, \
                      float* __restrict__ c, int n) {                           \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;                        \
    if (i < n) c[i] = a[i] + b[i];                                              \
  }
