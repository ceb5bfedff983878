/// @file bank_conflicts_steps.hpp
/// @brief Lesson 08's launcher for each float step: the one map that the hidden tests
/// (grader/lessons/08_bank_conflicts/tests.cu) and the bench's bank table (bench.cu) share.
#pragma once

#include <cuda_runtime.h>

#include "bank_conflicts.cuh"
#include "steps/08_bank_conflicts.hpp"

namespace bank_conflicts {

/// A float tile-product launcher of bank_conflicts.cuh: (a, b, c, rows, cols, stream), each
/// matrix rows x cols, row-major floats; returns the launch's error.
using FloatStepLauncher = cudaError_t (*)(const float*, const float*, float*, int, int,
                                          cudaStream_t);

/// The launcher whose kernel float step `step` grades.
/// @return its function, or nullptr for padded_64 (doubles: launch_tile_product_padded_64)
inline FloatStepLauncher float_step_launcher(Step step) {
  switch (step) {
    case Step::conflicted:
      return launch_tile_product_conflicted;
    case Step::padded:
      return launch_tile_product_padded;
    case Step::swizzled:
      return launch_tile_product_swizzled;
    default:
      return nullptr;
  }
}

}  // namespace bank_conflicts
