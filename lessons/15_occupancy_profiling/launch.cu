// The course-owned code of lesson 15_occupancy_profiling: mix_channels' grid and its copy rung;
// segment_scan (the kernel of step block_size), its launch with the student's block size, its
// copy rung and its occupancy.
#include <algorithm>

#include "occupancy.cuh"

namespace occupancy_profiling {

namespace {

constexpr long long kMaxElements = 1LL << 40;

// The SM count of the current device, asked once per process (a timed loop must not wait for
// host queries; one device per process).
cudaError_t sm_count(int* sms) {
  static int cached = 0;
  if (cached == 0) {
    int device = 0;
    if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
    if (cudaError_t err = cudaDeviceGetAttribute(&cached, cudaDevAttrMultiProcessorCount, device);
        err != cudaSuccess)
      return err;
  }
  *sms = cached;
  return cudaSuccess;
}

// mix_channels' grid: 4 waves of 8 blocks of 256 per SM (every GPU of the course holds at most
// 2,048 threads per SM), or fewer blocks when the work is smaller.
cudaError_t mix_grid(long long n, unsigned* blocks) {
  if (n < 1 || n > kMaxElements) return cudaErrorInvalidValue;
  int sms = 0;
  if (cudaError_t err = sm_count(&sms); err != cudaSuccess) return err;
  const long long cap = 4LL * 8 * sms;
  const long long need = (n * CHANNELS + MIX_BLOCK_THREADS - 1) / MIX_BLOCK_THREADS;
  *blocks = static_cast<unsigned>(std::min(cap, need));
  return cudaSuccess;
}

// The rung of step registers: the same bytes copied as float4, grid-stride, same grid.
__global__ void mix_copy_rung(const float4* __restrict__ in, float4* __restrict__ out,
                              long long count) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride)
    out[i] = in[i];
}

// The rung of step block_size: n ints copied as int4 (a scalar tail), grid-stride.
__global__ void segment_copy_rung(const int* __restrict__ x, int* __restrict__ out, long long n) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long vectors = n / 4;
  const int4* x4 = reinterpret_cast<const int4*>(x);
  int4* out4 = reinterpret_cast<int4*>(out);
  for (long long i = first; i < vectors; i += stride) out4[i] = x4[i];
  for (long long i = 4 * vectors + first; i < n; i += stride) out[i] = x[i];
}

int last_block = 0;

}  // namespace

// Block b stages its blockDim.x segments in shared memory with coalesced loads (thread t loads
// elements t, t + blockDim.x, ...), each thread scans its own segment (padded rows: thread t's
// row starts in bank t % 32, so the 32 lanes of a warp read 32 banks), then the block stores
// coalesced again.
__global__ void segment_scan(const int* __restrict__ x, int* __restrict__ out, long long n) {
  extern __shared__ int rows[];  // blockDim.x rows of SEGMENT + 1 ints
  const int threads = static_cast<int>(blockDim.x);
  const long long base = static_cast<long long>(blockIdx.x) * threads * SEGMENT;
  for (int k = static_cast<int>(threadIdx.x); k < threads * SEGMENT; k += threads) {
    const long long i = base + k;
    rows[k / SEGMENT * (SEGMENT + 1) + k % SEGMENT] = i < n ? x[i] : 0;
  }
  __syncthreads();
  int* row = rows + threadIdx.x * (SEGMENT + 1);
  int sum = 0;
#pragma unroll
  for (int j = 0; j < SEGMENT; ++j) {
    sum += row[j];
    row[j] = sum;
  }
  __syncthreads();
  for (int k = static_cast<int>(threadIdx.x); k < threads * SEGMENT; k += threads) {
    const long long i = base + k;
    if (i < n) out[i] = rows[k / SEGMENT * (SEGMENT + 1) + k % SEGMENT];
  }
}

cudaError_t prepare_segment_scan() {
  static bool done = false;
  if (done) return cudaSuccess;
  int device = 0, optin = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (cudaError_t err =
          cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      err != cudaSuccess)
    return err;
  if (cudaError_t err =
          cudaFuncSetAttribute(segment_scan, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
      err != cudaSuccess)
    return err;
  done = true;
  return cudaSuccess;
}

cudaError_t launch_mix_channels(const float* in, float* out, const float* m, long long n,
                                cudaStream_t stream) {
  unsigned blocks = 0;
  if (cudaError_t err = mix_grid(n, &blocks); err != cudaSuccess) return err;
  mix_channels<<<blocks, MIX_BLOCK_THREADS, 0, stream>>>(in, out, m, n);
  return cudaGetLastError();
}

cudaError_t launch_mix_copy_rung(const float* in, float* out, const float*, long long n,
                                 cudaStream_t stream) {
  unsigned blocks = 0;
  if (cudaError_t err = mix_grid(n, &blocks); err != cudaSuccess) return err;
  mix_copy_rung<<<blocks, MIX_BLOCK_THREADS, 0, stream>>>(reinterpret_cast<const float4*>(in),
                                                          reinterpret_cast<float4*>(out), 2 * n);
  return cudaGetLastError();
}

cudaError_t launch_segment_scan(const int* x, int* out, long long n, cudaStream_t stream) {
  if (n < 1 || n > kMaxElements) return cudaErrorInvalidValue;
  if (cudaError_t err = prepare_segment_scan(); err != cudaSuccess) return err;
  int block = 0;
  if (cudaError_t err = choose_block_size(&block); err != cudaSuccess) return err;
  last_block = block;
  if (block < 32 || block > 1024 || block % 32 != 0) return cudaErrorInvalidConfiguration;
  const long long per_block = static_cast<long long>(block) * SEGMENT;
  const unsigned blocks = static_cast<unsigned>((n + per_block - 1) / per_block);
  segment_scan<<<blocks, block, segment_smem_bytes(block), stream>>>(x, out, n);
  return cudaGetLastError();
}

int last_segment_block() {
  return last_block;
}

cudaError_t launch_segment_copy_rung(const int* x, int* out, long long n, cudaStream_t stream) {
  if (n < 1 || n > kMaxElements) return cudaErrorInvalidValue;
  int sms = 0;
  if (cudaError_t err = sm_count(&sms); err != cudaSuccess) return err;
  const long long need = (n / 4 + 255) / 256 + 1;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>(need, 4LL * 8 * sms));
  segment_copy_rung<<<blocks, 256, 0, stream>>>(x, out, n);
  return cudaGetLastError();
}

cudaError_t segment_occupancy(int block_threads, double* occupancy) {
  if (cudaError_t err = prepare_segment_scan(); err != cudaSuccess) return err;
  int device = 0, max_threads = 0, blocks = 0, optin = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (cudaError_t err =
          cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device);
      err != cudaSuccess)
    return err;
  if (cudaError_t err =
          cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      err != cudaSuccess)
    return err;
  // A block whose shared memory exceeds what one block may have here (a T4's 64 KB from 497
  // threads on) cannot launch at all: no occupancy.
  if (block_threads < 1 || segment_smem_bytes(block_threads) > static_cast<std::size_t>(optin)) {
    *occupancy = 0;
    return cudaSuccess;
  }
  if (cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &blocks, segment_scan, block_threads, segment_smem_bytes(block_threads));
      err != cudaSuccess)
    return err;
  *occupancy = static_cast<double>(blocks) * block_threads / max_threads;
  return cudaSuccess;
}

}  // namespace occupancy_profiling
