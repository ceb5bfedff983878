/// @file matmul_steps.hpp
/// @brief Lesson 13's launcher for each step: the one map that the hidden tests
/// (grader/lessons/13_matmul_tiled/tests.cu) and the bench's matmul ladder (bench.cu) share.
#pragma once

#include <cuda_runtime.h>

#include "matmul.cuh"
#include "steps/13_matmul_tiled.hpp"

namespace matmul_tiled {

/// A product launcher of matmul.cuh: (A, B, C, M, N, K, stream) for C = A B with A M x K, B K x N
/// and C M x N, row-major floats; returns the launch's error.
using StepLauncher = cudaError_t (*)(const float*, const float*, float*, int, int, int,
                                     cudaStream_t);

/// The launcher whose kernel step `step` grades.
/// @return its function, or nullptr for a step the enum gained without a launcher here
inline StepLauncher step_launcher(Step step) {
  switch (step) {
    case Step::naive:
      return launch_naive;
    case Step::shared_tiles:
      return launch_shared_tiles;
    case Step::register_tiles:
      return launch_register_tiles;
    case Step::warp_tiles:
      return launch_warp_tiles;
  }
  return nullptr;
}

}  // namespace matmul_tiled
