/// @file kernels.cuh
/// @brief The lab bench's own kernels (Lab 02): one element per thread, 256 threads per block.
/// Kernel names are chosen for Nsight Compute filters: `--kernel-name regex:transpose` selects
/// only the transpose ladder (launched through lessons/07_transpose), never these.
#pragma once

#include <cuda_runtime.h>

namespace bench {

/// Threads per block of every bench kernel.
constexpr int kThreads = 256;

/// A 3-float point, 12 bytes: the array-of-structures layout of the AoS/SoA table.
struct Point3 {
  float x, y, z;
};

/// out[i] = in[i * stride] for i < n (so `in` holds at least (n - 1) * stride + 1 floats).
cudaError_t launch_stride_copy(const float* in, float* out, long long n, int stride,
                               cudaStream_t stream);
/// out[i] = points[i].x for i < n: reads one field of an array of structures.
cudaError_t launch_aos_load_x(const Point3* points, float* out, long long n, cudaStream_t stream);
/// out[i] = xs[i] for i < n: the same field stored as its own array (structure of arrays).
cudaError_t launch_soa_load_x(const float* xs, float* out, long long n, cudaStream_t stream);

}  // namespace bench
