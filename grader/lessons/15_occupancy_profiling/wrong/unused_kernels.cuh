// Wrong-kernel submissions are graded only on the step the manifest names. Each defines the
// student's two pieces: the wrong one, and the solution's for the other step (SOLUTION_*), so
// that the profile step of the variant sees right kernels except the one wrong on purpose.
#pragma once
#include "occupancy.cuh"
#include "register_rung.cuh"  // MATRIX_IN_REGISTERS: the README's first version

// The solution's mix_channels: four threads per pixel, two output channels each.
#define SOLUTION_MIX_CHANNELS                                                                    \
  __global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,            \
                               const float* __restrict__ m, long long n) {                       \
    const int q = threadIdx.x % 4;                                                               \
    float rows[2 * CHANNELS];                                                                    \
    _Pragma("unroll") for (int k = 0; k < 2 * CHANNELS; ++k) rows[k] = m[2 * CHANNELS * q + k];  \
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x / 4;                 \
    for (long long p = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 4;      \
         p < n; p += stride) {                                                                   \
      const float4* v = reinterpret_cast<const float4*>(in + p * CHANNELS);                      \
      const float4 a = v[0], b = v[1];                                                           \
      const float x[CHANNELS] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};                        \
      float o[2];                                                                                \
      _Pragma("unroll") for (int r = 0; r < 2; ++r) {                                            \
        float s = rows[r * CHANNELS] * x[0];                                                     \
        _Pragma("unroll") for (int k = 1; k < CHANNELS; ++k) s =                                 \
            fmaf(rows[r * CHANNELS + k], x[k], s);                                               \
        o[r] = s;                                                                                \
      }                                                                                          \
      reinterpret_cast<float2*>(out + p * CHANNELS)[q] = make_float2(o[0], o[1]);                \
    }                                                                                            \
  }

// The first solution's mix_channels, now a near miss: one output channel per thread. 40
// registers, but the 8 lanes of a pixel each load its 32 bytes and M's row: eight times the load
// instructions of a pixel per lane.
#define CHANNEL_PER_THREAD_MIX_CHANNELS                                                          \
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
