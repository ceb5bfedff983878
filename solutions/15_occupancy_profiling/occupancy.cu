// Lesson 15_occupancy_profiling: the kernel and the host code you write (see
// lessons/15_occupancy_profiling/README.md).
#include "occupancy.cuh"

namespace occupancy_profiling {

// Step registers: one output channel per thread instead of one pixel per thread. A thread then
// needs one row of M (8 floats), not all 64: about 30 registers, so 8 blocks of 256 fit an SM.
// The 8 lanes of a pixel load the same 32 bytes (one sector, served once per warp request); each
// lane stores one float, and a warp's 32 stores cover 128 consecutive bytes.
__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n) {
  const long long items = n * CHANNELS;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < items;
       j += stride) {
    const long long p = j / CHANNELS;
    const int r = static_cast<int>(j % CHANNELS);
    const float4* v = reinterpret_cast<const float4*>(in + p * CHANNELS);
    const float4* row = reinterpret_cast<const float4*>(m + r * CHANNELS);
    const float4 a = v[0], b = v[1], ma = row[0], mb = row[1];
    float s = ma.x * a.x;
    s = fmaf(ma.y, a.y, s);
    s = fmaf(ma.z, a.z, s);
    s = fmaf(ma.w, a.w, s);
    s = fmaf(mb.x, b.x, s);
    s = fmaf(mb.y, b.y, s);
    s = fmaf(mb.z, b.z, s);
    s = fmaf(mb.w, b.w, s);
    out[j] = s;
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
