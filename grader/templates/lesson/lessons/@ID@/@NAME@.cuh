/// @file @NAME@.cuh
/// @brief Lesson @ID@: the kernels a student writes and the launchers the course owns.
///
/// TODO(lesson author): say what the lesson's kernels compute, their shapes, layouts and units.
/// The skeleton has one step, `copy`: out[i] = in[i] for every i < n.
#pragma once

#include <cuda_runtime.h>

/// Lesson @ID@: kernels (student) and launchers (course).
namespace @NAME@ {

/// Threads per block of every launch of this lesson.
constexpr int BLOCK_THREADS = 256;

// ---- Kernels the student writes (exercises/@ID@/@NAME@.cu) ----

/// Step `copy`: out[i] = in[i] for every i < n, one element per thread.
/// @param in  n floats, device memory, read only
/// @param out n floats, device memory; in and out never overlap
/// @param n   element count, >= 1
__global__ void copy(const float* __restrict__ in, float* __restrict__ out, int n);

// ---- Launchers the course owns (lessons/@ID@/launch.cu) ----
//
// One launcher per kernel, all alike: the lesson's fixed geometry on `stream`, no
// synchronization. Each returns cudaSuccess, cudaErrorInvalidValue for n < 1, or the launch error.

/// Launches copy on ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads.
cudaError_t launch_copy(const float* in, float* out, int n, cudaStream_t stream = 0);

/// The step's ceiling ("copy rung"): the course's own copy with the same grid, block and bounds
/// check. Errors as launch_copy.
cudaError_t launch_copy_rung(const float* in, float* out, int n, cudaStream_t stream = 0);

}  // namespace @NAME@
