// A student's trial of lesson 10_reduction (tenth session, written from the texts alone on a
// machine without a GPU; compiled for sm_90, never run). Grade it on a GPU: copy it over
// exercises/10_reduction/reduction.cu in a scratch clone, run ./build/grader 10_reduction and
// --sanitize.

// Lesson 10_reduction: complete the four kernels below, then run `./build/grader 10_reduction`.
//
// The launches are in lessons/10_reduction/launch.cu and are not yours to change: blocks of 256
// threads, the grids written next to each kernel. The header lessons/10_reduction/reduction.cuh
// documents every kernel and the helpers you may call (row_team_lanes, row_part_begin,
// sum_tiles, arg_max_key); README.md explains the lesson.
//
//   step narrow_rows:       row sums, rows of 1-1024 floats: a team of lanes per row
//   step wide_rows:         row sums, longer rows: a row split over blocks, float4 loads
//   step arg_max:           the index of the maximum, the lowest index on ties
//   step deterministic_sum: the same bits on every run and every grid: fixed tiles, last block
//
// You may add __device__ helper functions (a warp sum, a block sum, ...) to this file.
#include "reduction.cuh"

#include <cmath>  // INFINITY

namespace reduction {

namespace {

constexpr int WARPS_PER_BLOCK = BLOCK_THREADS / WARP_SIZE;  // 8
constexpr unsigned FULL_MASK = 0xffffffffu;

// Sum of the warp's 32 values, in lane 0 (the other lanes hold partial sums). The order of the
// additions is fixed: it depends on nothing but the lane numbers.
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

// Sum of the block's 256 values, valid in thread 0 only. Every thread of the block must call it
// (it has a barrier). `warp_sums` is __shared__ float[WARPS_PER_BLOCK]; the caller must put a
// __syncthreads() between two calls that use the same array (warp 0 reads it after the barrier).
__device__ __forceinline__ float block_sum(float v, float* warp_sums) {
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  float s = 0.0f;
  if (warp == 0) {
    s = lane < WARPS_PER_BLOCK ? warp_sums[lane] : 0.0f;
    s = warp_sum(s);
  }
  return s;
}

// Arg max pairs: (value, index), index -1 = "no element yet" (loses to every element).
// Does candidate (v2, i2) beat (v1, i1)? The larger value; on equal values the lower index.
__device__ __forceinline__ bool beats(float v2, long long i2, float v1, long long i1) {
  if (i2 < 0) return false;
  if (i1 < 0) return true;
  return v2 > v1 || (v2 == v1 && i2 < i1);
}

__device__ __forceinline__ void warp_arg_max(float& v, long long& i) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) {
    const float ov = __shfl_down_sync(FULL_MASK, v, offset);
    const long long oi = __shfl_down_sync(FULL_MASK, i, offset);
    if (beats(ov, oi, v, i)) {
      v = ov;
      i = oi;
    }
  }
}

}  // namespace

// Grid: ceil(rows / (256 / lanes)) blocks of 256 threads; lanes = row_team_lanes(cols) is 1, 2,
// 4, 8, 16 or 32. Lane l of a team adds columns l, l + lanes, ...; the team's sums meet in its
// lane 0 through shuffles of width `lanes`.
__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (BLOCK_THREADS / lanes) + team;
  float v = 0.0f;
  if (row < rows) {  // a team past the last row keeps 0, but stays for the shuffles
    const float* r = x + row * cols;
#pragma unroll 4
    for (int c = lane; c < cols; c += lanes) v += r[c];
  }
  // lanes is the same for the whole warp, so every lane runs the same shuffles: full mask.
  for (int offset = lanes / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset, lanes);
  if (lane == 0 && row < rows) out[row] = v;
}

// Grid: rows x parts blocks of 256 threads, parts = row_parts(rows, cols) (one wave of blocks:
// 16 per row for 64 rows on an H200); out is 0 on entry.
__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  __shared__ float warp_sums[WARPS_PER_BLOCK];
  const long long row = blockIdx.x / parts;
  const int part = static_cast<int>(blockIdx.x % parts);
  const long long begin = row_part_begin(cols, parts, part);
  const long long end = row_part_begin(cols, parts, part + 1);
  const long long len = end - begin;
  if (len <= 0 || row >= rows)
    return;  // the same for the whole block: no barrier is skipped by a few

  const float* s = x + row * cols + begin;
  // Head: floats before the first 16-byte boundary (0-3; s is 4-byte aligned).
  const int misalign = static_cast<int>(reinterpret_cast<uintptr_t>(s) % 16);
  long long head = misalign == 0 ? 0 : (16 - misalign) / 4;
  if (head > len) head = len;
  float v = 0.0f;
  if (threadIdx.x < head) v += s[threadIdx.x];

  // Body: aligned float4s, four independent loads per iteration.
  const float4* s4 = reinterpret_cast<const float4*>(s + head);
  const long long quads = (len - head) / 4;
  long long j = threadIdx.x;
  constexpr int B = BLOCK_THREADS;
  for (; j + 3 * B < quads; j += 4 * B) {
    const float4 a = s4[j], b = s4[j + B], c = s4[j + 2 * B], d = s4[j + 3 * B];
    v += (a.x + a.y) + (a.z + a.w);
    v += (b.x + b.y) + (b.z + b.w);
    v += (c.x + c.y) + (c.z + c.w);
    v += (d.x + d.y) + (d.z + d.w);
  }
  for (; j < quads; j += B) {
    const float4 a = s4[j];
    v += (a.x + a.y) + (a.z + a.w);
  }

  // Tail: the 0-3 floats after the last whole float4.
  const long long tail_begin = head + 4 * quads;
  if (tail_begin + threadIdx.x < len) v += s[tail_begin + threadIdx.x];

  const float sum = block_sum(v, warp_sums);
  if (threadIdx.x == 0) atomicAdd(&out[row], sum);
}

// Grid: min(8 x SMs, ceil(n / 256)) blocks of 256 threads; *key is 0 on entry.
__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  __shared__ float warp_v[WARPS_PER_BLOCK];
  __shared__ long long warp_i[WARPS_PER_BLOCK];
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;

  // "No element yet": index -1. The first element of the thread replaces it whatever its value
  // (also -INFINITY); later ones only when strictly larger, so the first of equal maxima stays.
  float bv = -INFINITY;
  long long bi = -1;
  if (t < n) {
    bv = x[t];
    bi = t;
  }
  long long i = t + stride;
  for (; i + 3 * stride < n; i += 4 * stride) {  // four loads in flight, visited in index order
    const float a = x[i], b = x[i + stride], c = x[i + 2 * stride], d = x[i + 3 * stride];
    if (a > bv) {
      bv = a;
      bi = i;
    }
    if (b > bv) {
      bv = b;
      bi = i + stride;
    }
    if (c > bv) {
      bv = c;
      bi = i + 2 * stride;
    }
    if (d > bv) {
      bv = d;
      bi = i + 3 * stride;
    }
  }
  for (; i < n; i += stride) {
    const float a = x[i];
    if (a > bv) {
      bv = a;
      bi = i;
    }
  }

  warp_arg_max(bv, bi);
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  if (lane == 0) {
    warp_v[warp] = bv;
    warp_i[warp] = bi;
  }
  __syncthreads();
  if (warp == 0) {
    bv = lane < WARPS_PER_BLOCK ? warp_v[lane] : -INFINITY;
    bi = lane < WARPS_PER_BLOCK ? warp_i[lane] : -1;
    warp_arg_max(bv, bi);
    if (lane == 0 && bi >= 0) atomicMax(key, arg_max_key(bv, bi));
  }
}

// Grid: any number of blocks of 256 threads (the tests try several); *blocks_done is 0 on entry.
__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  __shared__ float warp_sums[WARPS_PER_BLOCK];
  __shared__ bool is_last;
  const long long tiles = sum_tiles(n);

  // Pass 1: tile t is summed the same way whichever block takes it.
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long base = t * SUM_TILE;
    float v = 0.0f;
    if (base + SUM_TILE <= n) {
      const float4* q = reinterpret_cast<const float4*>(x + base);  // 64 KiB steps: aligned
#pragma unroll 4
      for (int k = 0; k < SUM_QUADS_PER_THREAD; ++k) {
        const float4 f = q[threadIdx.x + k * BLOCK_THREADS];
        v += (f.x + f.y) + (f.z + f.w);
      }
    } else {
      for (long long i = base + threadIdx.x; i < n; i += BLOCK_THREADS) v += x[i];
    }
    const float s = block_sum(v, warp_sums);
    if (threadIdx.x == 0) partials[t] = s;
    __syncthreads();  // warp 0 has read warp_sums before the next tile overwrites them
  }

  // The ticket: every block takes one, also a block that had no tile.
  if (threadIdx.x == 0) {
    __threadfence();  // this block's partials before its ticket, for every thread of the GPU
    const unsigned ticket = atomicAdd(blocks_done, 1u);
    is_last = ticket == gridDim.x - 1;
    if (is_last) __threadfence();  // and the other blocks' partials before what we read next
  }
  __syncthreads();
  if (!is_last) return;  // the whole block leaves together

  // Pass 2, the last block: the partials in an order fixed by n alone.
  float v = 0.0f;
  for (long long i = threadIdx.x; i < tiles; i += BLOCK_THREADS) v += __ldcg(&partials[i]);
  const float s = block_sum(v, warp_sums);
  if (threadIdx.x == 0) {
    *out = s;
    *blocks_done = 0;  // for the next launch
  }
}

}  // namespace reduction
