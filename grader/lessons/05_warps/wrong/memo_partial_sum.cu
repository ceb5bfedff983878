// Wrong on purpose (a cheat the timing must defeat): the slow shared-memory tree of
// shared_tree_no_shuffles, plus a memo. It remembers the input pointer, n, four sampled elements
// and the sum of the first three quarters of the array; when a launch sees the same pointer, n and
// samples again, it sums only the last quarter and adds the remembered part. Timed on one unchanged
// input, it looked about four times faster than it is (issue 19: such a kernel passed array_sum at
// 83% of CUB). Every timed launch now gets inputs of its own, so the memo never hits and the
// kernel is as slow as its tree: below the gate.
#include "unused_kernels.cuh"

namespace warps {
UNUSED_UNIFORM_BRANCH
UNUSED_WARP_REDUCE

namespace {
__device__ const float* memo_x = nullptr;
__device__ long long memo_n = -1;
__device__ float memo_sample[4];
__device__ float memo_part = 0.0f;  // the remembered input's sum of x[0 .. cut)
__device__ float part_acc = 0.0f;   // this launch's sum of x[0 .. cut)
__device__ unsigned done_blocks = 0;

__device__ long long sample_index(int k, long long n) {
  return (n - 1) * k / 3;
}
}  // namespace

__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  __shared__ float tile[BLOCK_THREADS];
  __shared__ bool hit;
  const long long cut = n / 4 * 3 / BLOCK_THREADS * BLOCK_THREADS;  // whole tiles
  if (threadIdx.x == 0) {
    bool same = memo_x == x && memo_n == n;
    for (int k = 0; k < 4 && same; ++k) same = memo_sample[k] == x[sample_index(k, n)];
    hit = same;
  }
  __syncthreads();
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f, part = 0.0f;  // used by thread 0 only
  for (long long base = static_cast<long long>(blockIdx.x) * blockDim.x + (hit ? cut : 0); base < n;
       base += stride) {
    const long long i = base + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (static_cast<int>(threadIdx.x) < half) tile[threadIdx.x] += tile[threadIdx.x + half];
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      acc += tile[0];
      if (base < cut) part += tile[0];
    }
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  if (hit && blockIdx.x == 0) acc += memo_part;
  atomicAdd(out, acc);
  if (!hit) atomicAdd(&part_acc, part);
  __threadfence();
  if (atomicAdd(&done_blocks, 1u) == gridDim.x - 1) {  // the last block keeps the memo
    if (!hit) {
      memo_part = atomicExch(&part_acc, 0.0f);
      memo_x = x;
      memo_n = n;
      for (int k = 0; k < 4; ++k) memo_sample[k] = x[sample_index(k, n)];
    }
    done_blocks = 0;
  }
}
}  // namespace warps
