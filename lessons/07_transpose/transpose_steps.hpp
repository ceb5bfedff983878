/// @file transpose_steps.hpp
/// @brief Lesson 07's launcher for each step: the one map that the hidden tests
/// (grader/lessons/07_transpose/tests.cu) and the bench's transpose ladder (bench.cu) share.
#pragma once

#include <cuda_runtime.h>

#include "steps/07_transpose.hpp"
#include "transpose.cuh"

namespace transpose {

/// A transpose launcher of transpose.cuh: (in, out, rows, cols, stream), `in` rows x cols and
/// `out` cols x rows, row-major floats; returns the launch's error.
using StepLauncher = cudaError_t (*)(const float*, float*, int, int, cudaStream_t);

/// The launcher whose kernel step `step` grades.
/// @return its function, or nullptr for a step the enum gained without a launcher here
inline StepLauncher step_launcher(Step step) {
  switch (step) {
    case Step::naive:
      return launch_transpose_naive;
    case Step::tiled:
      return launch_transpose_tiled;
    case Step::tiled_padded:
      return launch_transpose_tiled_padded;
    case Step::tiled_cp_async:
      return launch_transpose_tiled_cp_async;
    case Step::padded_32x32:
      return launch_transpose_padded_32x32;
  }
  return nullptr;
}

}  // namespace transpose
