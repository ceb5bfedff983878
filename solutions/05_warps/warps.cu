// Lesson 05_warps: the course's solution (the stub in exercises/05_warps/warps.cu, completed).
//
//   step uniform_branch: the same output as thread i taking element i, with a warp-uniform branch
//   step warp_reduce:    warp sums and maxima with __shfl_down_sync, right on a partial warp
//   step array_sum:      grid-stride loop, shuffles, shared memory, one atomicAdd per block
#include "warps.cuh"

namespace warps {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// The sum of v over the 32 lanes of the warp, in lane 0 (the other lanes hold partial sums).
// Every lane of the warp must call it: each shuffle names all 32 lanes in its mask.
__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// The maximum of v over the 32 lanes of the warp, in lane 0. Every lane must call it.
__device__ float warp_max(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v = fmaxf(v, __shfl_down_sync(kFullMask, v, offset));
  return v;
}

}  // namespace

// Fixes the divergence: warps 0-3 of a block take its 128 even elements and warps 4-7 its 128
// odd ones, so the parity, and the branch, is the same for all 32 lanes of a warp. Still
// imperfect: each warp's loads and stores skip every other float (two warps share each 128-byte
// line), which costs little here because the time is in the arithmetic.
__global__ void uniform_branch(const float* __restrict__ x, float* __restrict__ out, int n) {
  const int half = blockDim.x / 2;               // 128 threads for each parity: 4 whole warps
  const int parity = threadIdx.x >= half;        // 0 in warps 0-3, 1 in warps 4-7
  const int pair = threadIdx.x - parity * half;  // which of the block's 128 pairs of elements
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + 2 * pair + parity;
  if (i < n) out[i] = parity ? odd_work(x[i]) : even_work(x[i]);
}

// Right on partial warps: lanes past n stay in the warp and contribute the identities (0 to the
// sum, -INFINITY to the maximum), so every shuffle of the full mask has 32 live lanes behind it.
__global__ void warp_reduce(const float* __restrict__ x, float* __restrict__ sums,
                            float* __restrict__ maxs, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const bool mine = i < n;
  const float sum = warp_sum(mine ? x[i] : 0.0f);
  const float max = warp_max(mine ? x[i] : -INFINITY);
  const long long group = i / WARP_SIZE;
  if (threadIdx.x % WARP_SIZE == 0 && group * WARP_SIZE < n) {  // lane 0 of a warp with data
    sums[group] = sum;
    maxs[group] = max;
  }
}

// One pass over memory with coalesced loads, one register sum per thread, five shuffles per
// warp, one shared-memory exchange and one atomic per block. At 8 blocks per SM it measured
// 99.2-99.6% of CUB on our H200 (docs/measured/H200.md, lesson 05). One 4-byte load at a time per
// thread would be too few bytes in flight there (WARMUP §8.4); nvcc 13.0 unrolls this loop four
// times and issues four loads before adding them (docs/measured/compiler.md, lesson 05).
__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n) {
  __shared__ float warp_sums[BLOCK_THREADS / WARP_SIZE];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float acc = 0.0f;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    acc += x[i];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  acc = warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();  // every warp's sum is in shared memory before warp 0 reads them
  if (warp == 0) {
    const int warps = blockDim.x / WARP_SIZE;
    const float block_sum = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, block_sum);
  }
}

}  // namespace warps
