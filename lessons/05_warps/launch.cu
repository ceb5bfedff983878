// The course-owned launches of lesson 05_warps: fixed geometry (blocks of 256 threads), the
// divergence step's rung, and the array sum's library ceiling, cub::DeviceReduce::Sum.
#include <cub/cub.cuh>

#include "warps.cuh"

namespace warps {

namespace {

// The rung of step uniform_branch: the student's work without the hazard. Same grid, block,
// bytes and chains; thread t of block b takes element b * 256 + t (coalesced, like the naive
// kernel) and the chain depends on t / 128, that is on the warp (warps 0-3: even_work, warps
// 4-7: odd_work), never on the lane: no warp diverges. It computes a different function than the
// step asks for, which does not matter for timing.
__global__ void branch_rung(const float* __restrict__ x, float* __restrict__ out, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool second_half = threadIdx.x >= blockDim.x / 2;
  if (i < n) out[i] = second_half ? odd_work(x[i]) : even_work(x[i]);
}

unsigned full_grid(long long n) {
  return static_cast<unsigned>((n + BLOCK_THREADS - 1) / BLOCK_THREADS);
}

// n < 2^40 keeps every index and the grid far from overflow; no test comes near it.
constexpr long long kMaxSumElements = 1LL << 40;

// CUB's temporary storage, kept for the life of the process (one device per process: the
// grader's tests run on the current device only).
struct CubScratch {
  void* memory = nullptr;
  std::size_t bytes = 0;
};

CubScratch& scratch() {
  static CubScratch s;
  return s;
}

}  // namespace

cudaError_t launch_uniform_branch(const float* x, float* out, int n, cudaStream_t stream) {
  if (n < 1) return cudaErrorInvalidValue;
  uniform_branch<<<full_grid(n), BLOCK_THREADS, 0, stream>>>(x, out, n);
  return cudaGetLastError();
}

cudaError_t launch_branch_rung(const float* x, float* out, int n, cudaStream_t stream) {
  if (n < 1) return cudaErrorInvalidValue;
  branch_rung<<<full_grid(n), BLOCK_THREADS, 0, stream>>>(x, out, n);
  return cudaGetLastError();
}

cudaError_t launch_warp_reduce(const float* x, float* sums, float* maxs, int n,
                               cudaStream_t stream) {
  if (n < 1) return cudaErrorInvalidValue;
  warp_reduce<<<full_grid(n), BLOCK_THREADS, 0, stream>>>(x, sums, maxs, n);
  return cudaGetLastError();
}

cudaError_t array_sum_blocks(long long n, int* blocks) {
  if (n < 1 || n >= kMaxSumElements || blocks == nullptr) return cudaErrorInvalidValue;
  int device = 0, sms = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  if (cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      err != cudaSuccess)
    return err;
  const long long per_sm = static_cast<long long>(SUM_BLOCKS_PER_SM) * sms;
  const long long full = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  *blocks = static_cast<int>(per_sm < full ? per_sm : full);
  return cudaSuccess;
}

cudaError_t launch_array_sum(const float* x, float* out, long long n, cudaStream_t stream) {
  int blocks = 0;
  if (cudaError_t err = array_sum_blocks(n, &blocks); err != cudaSuccess) return err;
  if (cudaError_t err = cudaMemsetAsync(out, 0, sizeof(float), stream); err != cudaSuccess)
    return err;
  array_sum<<<blocks, BLOCK_THREADS, 0, stream>>>(x, out, n);
  return cudaGetLastError();
}

cudaError_t launch_cub_sum(const float* x, float* out, long long n, cudaStream_t stream) {
  if (n < 1 || n >= kMaxSumElements) return cudaErrorInvalidValue;
  std::size_t need = 0;
  if (cudaError_t err = cub::DeviceReduce::Sum(nullptr, need, x, out, n, stream);
      err != cudaSuccess)
    return err;
  CubScratch& s = scratch();
  if (need > s.bytes) {  // first call, or a larger n: outside every timed launch
    if (s.memory != nullptr) {
      if (cudaError_t err = cudaFree(s.memory); err != cudaSuccess) return err;
      s.memory = nullptr;
      s.bytes = 0;
    }
    if (cudaError_t err = cudaMalloc(&s.memory, need); err != cudaSuccess) return err;
    s.bytes = need;
  }
  std::size_t bytes = s.bytes;
  return cub::DeviceReduce::Sum(s.memory, bytes, x, out, n, stream);
}

}  // namespace warps
