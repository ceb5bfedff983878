// A student's trial of lesson 15_occupancy_profiling (tenth session, written from the texts alone
// on a machine without a GPU; compiled for sm_90, never run). Grade it on a GPU: copy it over
// exercises/15_occupancy_profiling/occupancy.cu in a scratch clone, run ./build/grader
// 15_occupancy_profiling and --sanitize.

// Lesson 15_occupancy_profiling: the kernel and the host code you write (see
// lessons/15_occupancy_profiling/README.md). Grade with ./build/grader 15.
#include "occupancy.cuh"

namespace occupancy_profiling {

// Four threads share a pixel; each computes two of its eight output channels.
constexpr int kThreadsPerPixel = 4;
constexpr int kRowsPerThread = CHANNELS / kThreadsPerPixel;  // 2
static_assert(MIX_BLOCK_THREADS % kThreadsPerPixel == 0,
              "a thread's quarter q must not change along the grid-stride loop");

// Step registers: out = M v for every pixel v of 8 channels. The README's first version (one
// thread per pixel, all of M held in registers) is right but uses 96 registers per thread, which
// caps occupancy at 2 blocks of 256 per SM. Write one that needs at most kMaxRegisters registers
// and spills none (check with -Xptxas -v, README section 2).
//
// Work item j (0 <= j < 4n) is pixel p = j / 4, quarter q = j % 4: output channels 2q and 2q + 1.
// The grid's thread count is a multiple of 4 (blocks of 256), so along the grid-stride loop j
// advances by a multiple of 4 and q = threadIdx.x % 4 never changes: the thread loads rows 2q and
// 2q + 1 of M (16 floats, contiguous at m[16q]) once, before the loop. Per pixel it loads the
// pixel's 8 channels as two float4 (the 4 lanes of a pixel load the same 32 bytes) and stores one
// float2: out[8p + 2q], out[8p + 2q + 1]; a warp's stores cover 8 pixels = 256 consecutive bytes.
__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n) {
  const int q = static_cast<int>(threadIdx.x) % kThreadsPerPixel;

  // Rows 2q and 2q + 1 of M: m[16q .. 16q + 15], 64-byte aligned (m is from cudaMalloc).
  const float4* m4 = reinterpret_cast<const float4*>(m + q * kRowsPerThread * CHANNELS);
  const float4 r0a = m4[0], r0b = m4[1];  // row 2q
  const float4 r1a = m4[2], r1b = m4[3];  // row 2q + 1

  const float4* in4 = reinterpret_cast<const float4*>(in);
  float2* out2 = reinterpret_cast<float2*>(out);

  const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long stride = threads / kThreadsPerPixel;  // pixels per sweep of the grid
  for (long long p =
           (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kThreadsPerPixel;
       p < n; p += stride) {
    const float4 a = in4[2 * p];      // channels 0..3
    const float4 b = in4[2 * p + 1];  // channels 4..7
    float2 r;
    r.x = r0a.x * a.x + r0a.y * a.y + r0a.z * a.z + r0a.w * a.w + r0b.x * b.x + r0b.y * b.y +
          r0b.z * b.z + r0b.w * b.w;
    r.y = r1a.x * a.x + r1a.y * a.y + r1a.z * a.z + r1a.w * a.w + r1b.x * b.x + r1b.y * b.y +
          r1b.z * b.z + r1b.w * b.w;
    out2[kThreadsPerPixel * p + q] = r;  // floats 8p + 2q, 8p + 2q + 1
  }
}

// Step block_size: the block size for segment_scan on this GPU (README section 3).
//
// The occupancy API tries every multiple of 32 up to 1,024 with segment_smem_bytes(b) of dynamic
// shared memory and returns the one with the most resident threads per SM (on an H200: 864, two
// blocks, 84.4%). launch_segment_scan calls this before every launch, timed ones included, and the
// search is some 35 runtime calls, so the answer is remembered per device (the same for the
// process's life: prepare_segment_scan() has already raised the shared-memory limit).
cudaError_t choose_block_size(int* block_threads) {
  static int cached_device = -1;
  static int cached_block = 0;
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (device != cached_device || cached_block == 0) {
    int min_grid = 0, block = 0;
    // segment_smem_bytes is __host__ __device__, so it can be passed as the callable as is; a
    // plain host lambda compiles too but nvcc warns (#20013/#20015: constexpr __host__ called from
    // the API's __host__ __device__ template).
    if (cudaError_t err = cudaOccupancyMaxPotentialBlockSizeVariableSMem(
            &min_grid, &block, segment_scan, segment_smem_bytes, 1024);
        err != cudaSuccess)
      return err;
    if (block < 32) return cudaErrorInvalidConfiguration;  // no size fits: say so, do not launch
    cached_device = device;
    cached_block = block;
  }
  *block_threads = cached_block;
  return cudaSuccess;
}

}  // namespace occupancy_profiling
