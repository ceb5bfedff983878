// Wrong-kernel submissions are graded only on the step the manifest names; the kernels of the
// other steps are empty (they are never graded in that variant).
#pragma once
#include "transpose.cuh"

#define UNUSED_TRANSPOSE_KERNEL(name) \
  __global__ void name(const float* __restrict__, float* __restrict__, int, int) {}

// The optional extension kernels, never graded in a wrong-kernel variant.
#define UNUSED_EXTENSION_KERNELS                    \
  UNUSED_TRANSPOSE_KERNEL(transpose_tiled_cp_async) \
  __global__ void __launch_bounds__(1024, 1)        \
      transpose_padded_32x32(const float* __restrict__, float* __restrict__, int, int) {}
