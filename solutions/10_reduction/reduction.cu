// Lesson 10_reduction: the course's solution (the stub in exercises/10_reduction/reduction.cu,
// completed).
//
//   step narrow_rows:       a team of 1-32 lanes per row, shuffles of the team's width
//   step wide_rows:         a row split over one wave of blocks, float4 loads, one atomicAdd each
//   step arg_max:           (value, index) per thread, warp and block, one 64-bit atomicMax
//   step deterministic_sum: fixed tiles summed by blocks, the last block sums the tile sums
#include <cstdint>

#include "reduction.cuh"

namespace reduction {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// The sum of v over the 32 lanes of the warp, in lane 0. Every lane of the warp must call it.
__device__ float warp_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset);
  return v;
}

// The sum of v over the block (blockDim.x a multiple of 32, at most 1024), in thread 0: shuffles
// in each warp, the warp sums through shared memory, shuffles again in warp 0. The order of the
// additions depends on blockDim.x only. Every thread of the block must call it, and not twice in
// a row without a barrier between (warp_sums is reused).
__device__ float block_sum(float v) {
  __shared__ float warp_sums[WARP_SIZE];
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();  // every warp's sum is in shared memory before warp 0 reads them
  if (warp == 0) {
    const int warps = blockDim.x / WARP_SIZE;
    v = warp_sum(lane < warps ? warp_sums[lane] : 0.0f);
  }
  return v;
}

// The sum of a float4's four floats, in a fixed order.
__device__ float sum4(float4 v) {
  return (v.x + v.y) + (v.z + v.w);
}

// The better of two (value, index) candidates: the larger value, the lower index on ties.
// Indices of -1 mark "no candidate" (value -infinity), which loses to every real element.
__device__ void keep_better(float& value, long long& index, float other_value,
                            long long other_index) {
  const bool better = other_index >= 0 && (index < 0 || other_value > value ||
                                           (other_value == value && other_index < index));
  if (better) {
    value = other_value;
    index = other_index;
  }
}

}  // namespace

// A team of `lanes` consecutive threads per row: lane l reads columns l, l + lanes, ..., so the
// warp's loads cover consecutive floats (whole rows of 1-32 floats side by side, or 32 columns of
// one row), then log2(lanes) shuffles of width `lanes` add the team's sums, each team apart from
// the others in the same warp. Every lane of the warp runs the same shuffles (the loop depends
// on `lanes` only), including the teams past the last row, which hold 0.
__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  float v = 0.0f;
  if (row < rows) {
    const float* r = x + row * cols;
    for (int c = lane; c < cols; c += lanes) v += r[c];
  }
  for (int offset = lanes / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(kFullMask, v, offset, lanes);
  if (lane == 0 && row < rows) out[row] = v;
}

// This thread's share of p[0 .. len - 1], which the block's threads read together; p may start
// anywhere (rows of an odd length start wherever the row before ended).
// - Why float4: one 16-byte load moves four floats, a quarter of the load instructions of
//   4-byte loads (lesson 09); the read rung, the ceiling, reads that way.
// - Why a head: a float4 load must be 16-byte aligned (Programming Guide, "Device Memory
//   Accesses"), so the 0-3 floats before p's first 16-byte boundary are added one per thread.
// - Why four loads per iteration: one HBM load takes hundreds of cycles, and an SM keeps the
//   memory busy only with enough bytes in flight (WARMUP §8.4). The four loads of an iteration
//   do not depend on each other, so they are all issued before the first is used: 64 bytes in
//   flight per thread. The remainder loop takes the last 0-3 float4 steps of the block.
// - The tail: the 0-3 floats after the last whole float4, one per thread.
__device__ float block_share(const float* __restrict__ p, long long len) {
  const int misaligned = static_cast<int>(reinterpret_cast<std::uintptr_t>(p) % 16 / 4);
  const long long head = misaligned == 0 ? 0 : (4 - misaligned < len ? 4 - misaligned : len);
  float v = threadIdx.x < head ? p[threadIdx.x] : 0.0f;
  const float4* q = reinterpret_cast<const float4*>(p + head);
  const long long quads = (len - head) / 4, step = blockDim.x;
  long long i = threadIdx.x;
  for (; i + 3 * step < quads; i += 4 * step) {
    const float4 a = q[i], b = q[i + step], c = q[i + 2 * step], d = q[i + 3 * step];
    v += (sum4(a) + sum4(b)) + (sum4(c) + sum4(d));
  }
  for (; i < quads; i += step) v += sum4(q[i]);
  const long long tail = head + 4 * quads + threadIdx.x;
  if (tail < len) v += p[tail];
  return v;
}

// One block per part of a row: its share of the part, the block's sum, one atomicAdd. The
// launcher gives a row as many parts as keep the whole grid within one wave (8 blocks per SM):
// 16 per row for 64 rows on an H200's 132 SMs, 1,024 blocks that all run at once and finish
// together; with many rows each row is one part and the atomicAdd its only write.
__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  const long long row = blockIdx.x / parts;
  const int part = blockIdx.x % parts;
  const long long begin = row_part_begin(cols, parts, part);
  const long long end = row_part_begin(cols, parts, part + 1);
  float v = block_share(x + row * cols + begin, end - begin);
  v = block_sum(v);
  if (threadIdx.x == 0 && row < rows) atomicAdd(&out[row], v);
}

// A grid-stride loop visits a thread's elements in increasing index order, so a strict > keeps
// the first of equal maxima; the warp and the block compare values, then indices; one 64-bit
// atomicMax per block orders values first and, for equal values, the lower index first.
__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  __shared__ float best_values[BLOCK_THREADS / WARP_SIZE];
  __shared__ long long best_indices[BLOCK_THREADS / WARP_SIZE];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  float value = -INFINITY;
  long long index = -1;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float v = x[i];
    if (index < 0 || v > value) {
      value = v;
      index = i;
    }
  }
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    keep_better(value, index, __shfl_down_sync(kFullMask, value, offset),
                __shfl_down_sync(kFullMask, index, offset));
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  if (lane == 0) {
    best_values[warp] = value;
    best_indices[warp] = index;
  }
  __syncthreads();  // every warp's best is in shared memory before warp 0 reads them
  if (warp != 0) return;
  const bool mine = lane < BLOCK_THREADS / WARP_SIZE;
  value = mine ? best_values[lane] : -INFINITY;
  index = mine ? best_indices[lane] : -1;
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    keep_better(value, index, __shfl_down_sync(kFullMask, value, offset),
                __shfl_down_sync(kFullMask, index, offset));
  if (lane == 0 && index >= 0) atomicMax(key, arg_max_key(value, index));
}

// This thread's share of tile t (thread j: float4 number j, j + 256, ... of a whole tile, or
// elements j, j + 256, ... of the last, partial one), in an order fixed by t and n. The 16 loads
// of a whole tile are independent; under `#pragma unroll 4` nvcc 13.0 issues them two at a time in
// the loop (32 bytes in flight per thread, where row_sums_wide has its four loads, 64 bytes, in
// flight together) and keeps the kernel at 32 registers, so that 8 blocks still fit on an SM
// (docs/measured/compiler.md, "Lesson 10"). A tile starts SUM_TILE floats (64 KiB) after the last
// one: 16-byte aligned when x is.
__device__ float tile_share(const float* __restrict__ x, long long n, long long t) {
  const long long base = t * SUM_TILE;
  float v = 0.0f;
  if (base + SUM_TILE <= n) {
    const float4* q = reinterpret_cast<const float4*>(x + base) + threadIdx.x;
#pragma unroll 4
    for (int k = 0; k < SUM_QUADS_PER_THREAD; ++k) v += sum4(q[k * BLOCK_THREADS]);
  } else {
    for (long long i = base + threadIdx.x; i < n; i += BLOCK_THREADS) v += x[i];
  }
  return v;
}

// One kernel, two passes (the Programming Guide's "Memory Fence Functions" example, with fixed
// tiles). Why each choice:
// - Tiles of 16,384 floats, fixed by n: partials[t] has the same bits whichever block sums tile
//   t, on any grid. Large tiles leave few partials for pass 2 (4,096 at 2^26 elements), so the
//   one block that adds them has 16 loads per thread, not a second kernel launch and tens of
//   thousands of loads (pass 2 was not timed on its own; the whole ran at 95.5-95.8% of CUB on
//   our H200: calibration.md).
// - Pass 2 by the last block, not a second kernel: the block whose ticket is gridDim.x - 1 knows
//   every other block has written its partials. __threadfence() before the ticket makes a
//   block's partials visible to the whole GPU before its ticket can be seen (without it the last
//   block could read a stale partial); the last block fences again after its ticket, and reads
//   the partials with __ldcg (from L2, where they are, never from a stale line in its own L1).
// - Pass 2's order (thread j: partials j, j + 256, ...; then the block's tree) depends on the
//   number of tiles only; which block is last changes nothing.
// - The last block sets the counter back to 0: the next launch starts from 0 without a memset.
__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  __shared__ bool last;
  const long long tiles = sum_tiles(n);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const float s = block_sum(tile_share(x, n, t));
    if (threadIdx.x == 0) partials[t] = s;
    __syncthreads();  // block_sum's shared warp sums are read before the next tile writes them
  }
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials, then its ticket
    last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    if (last) __threadfence();  // the ticket, then the other blocks' partials
  }
  __syncthreads();  // every thread sees `last`
  if (!last) return;
  float v = 0.0f;
  for (long long t = threadIdx.x; t < tiles; t += blockDim.x) v += __ldcg(&partials[t]);
  v = block_sum(v);
  if (threadIdx.x == 0) {
    *out = v;
    *blocks_done = 0;
  }
}

}  // namespace reduction
