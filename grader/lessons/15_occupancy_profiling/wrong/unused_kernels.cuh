// Wrong-kernel submissions are graded only on the step the manifest names. Each defines the
// student's two pieces: the wrong one, and the solution's for the other step (SOLUTION_*), so
// that the profile step of the variant sees right kernels except the one wrong on purpose.
#pragma once
#include "occupancy.cuh"
#include "register_rung.cuh"  // MATRIX_IN_REGISTERS: the README's first version

// The solution's mix_channels: one output channel per thread.
#define SOLUTION_MIX_CHANNELS                                                                    \
  __global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,            \
                               const float* __restrict__ m, long long n) {                       \
    const long long items = n * CHANNELS;                                                        \
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;                     \
    for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < items; \
         j += stride) {                                                                          \
      const float4* v = reinterpret_cast<const float4*>(in + j / CHANNELS * CHANNELS);           \
      const float4* row = reinterpret_cast<const float4*>(m + j % CHANNELS * CHANNELS);          \
      const float4 a = v[0], b = v[1], ma = row[0], mb = row[1];                                 \
      out[j] = ma.x * a.x + ma.y * a.y + ma.z * a.z + ma.w * a.w + mb.x * b.x + mb.y * b.y +     \
               mb.z * b.z + mb.w * b.w;                                                          \
    }                                                                                            \
  }

// The solution's choose_block_size: the occupancy API.
#define SOLUTION_CHOOSE_BLOCK_SIZE                                                                \
  struct WrongSegmentSmem {                                                                       \
    __host__ __device__ std::size_t operator()(int b) const { return segment_smem_bytes(b); }     \
  };                                                                                              \
  cudaError_t choose_block_size(int* block_threads) {                                             \
    int min_grid = 0;                                                                             \
    return cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, block_threads, segment_scan, \
                                                          WrongSegmentSmem{});                    \
  }
