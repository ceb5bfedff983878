// Lesson 15_occupancy_profiling: the kernel and the host code you write (see
// lessons/15_occupancy_profiling/README.md).
#include "occupancy.cuh"

namespace occupancy_profiling {

// Step registers: four threads per pixel, two output channels each. A thread holds a quarter of M
// (rows 2q and 2q + 1: 16 floats, loaded once, since q = threadIdx.x % 4 never changes) and the
// pixel's 8 channels: 48 registers on sm_90, so 5 blocks of 256 fit an SM (62.5%). The 4 lanes of
// a pixel load the same 32 bytes (one sector per pixel; ncu: 5.3 sectors per request on our H200);
// each lane stores a float2, so a warp's stores cover 256 consecutive bytes.
__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n) {
  constexpr int kLanesPerPixel = 4, kRowsPerLane = CHANNELS / kLanesPerPixel;
  const int q = threadIdx.x % kLanesPerPixel;
  float rows[kRowsPerLane * CHANNELS];
#pragma unroll
  for (int k = 0; k < kRowsPerLane * CHANNELS; ++k) rows[k] = m[kRowsPerLane * CHANNELS * q + k];
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x / kLanesPerPixel;
  for (long long p =
           (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kLanesPerPixel;
       p < n; p += stride) {
    const float4* v = reinterpret_cast<const float4*>(in + p * CHANNELS);
    const float4 a = v[0], b = v[1];
    const float x[CHANNELS] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
    float o[kRowsPerLane];
#pragma unroll
    for (int r = 0; r < kRowsPerLane; ++r) {
      float s = rows[r * CHANNELS] * x[0];
#pragma unroll
      for (int k = 1; k < CHANNELS; ++k) s = fmaf(rows[r * CHANNELS + k], x[k], s);
      o[r] = s;
    }
    reinterpret_cast<float2*>(out + p * CHANNELS)[q] = make_float2(o[0], o[1]);
  }
}

// Step block_size: ask the occupancy API for the block size that keeps the most threads resident,
// given that segment_scan's dynamic shared memory grows with the block.
namespace {
struct SegmentSmem {
  __host__ __device__ std::size_t operator()(int block_threads) const {
    return segment_smem_bytes(block_threads);
  }
};
}  // namespace

cudaError_t choose_block_size(int* block_threads) {
  int min_grid = 0;
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, block_threads, segment_scan,
                                                        SegmentSmem{});
}

}  // namespace occupancy_profiling
