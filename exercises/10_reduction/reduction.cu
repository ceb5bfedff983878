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

namespace reduction {

// Grid: ceil(rows / (256 / lanes)) blocks of 256 threads; lanes = row_team_lanes(cols) is 1, 2,
// 4, 8, 16 or 32. Right, but slow: one thread per row. Lane 0 of each team walks its row alone
// while the other lanes wait, and the lanes that do work read addresses a whole row apart.
__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes) {
  // TODO(narrow_rows): let the team's `lanes` threads share the row: lane l adds columns l,
  // l + lanes, l + 2 * lanes, ... (the warp's loads then touch consecutive floats), then
  // log2(lanes) steps of __shfl_down_sync(0xffffffff, v, offset, lanes), offset = lanes / 2 ..
  // 1, bring the team's sum to its lane 0. Every lane of the warp must reach the shuffles, also
  // the lanes of a team past the last row (holding 0); only rows below `rows` are written.
  const int team = threadIdx.x / lanes, lane = threadIdx.x % lanes;
  const long long row = static_cast<long long>(blockIdx.x) * (blockDim.x / lanes) + team;
  if (lane != 0 || row >= rows) return;
  float v = 0.0f;
  for (int c = 0; c < cols; ++c) v += x[row * cols + c];
  out[row] = v;
}

// Grid: rows x parts blocks of 256 threads, parts = row_parts(rows, cols) (one wave of blocks:
// 16 per row for 64 rows on an H200); out is 0 on entry.
__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts) {
  // TODO(wide_rows): block b takes part p = b % parts of row b / parts: columns
  // row_part_begin(cols, parts, p) .. row_part_begin(cols, parts, p + 1) - 1, from
  // s = x + row * cols + begin on. Read them as float4 (16 bytes a load): first the 0-3 floats
  // before s's first 16-byte boundary (from the address: (uintptr_t)s % 16), one per thread;
  // then float4 j, j + 256, ... with four independent loads per loop iteration, so that each
  // thread has several loads in flight; then the 0-3 floats left, one per thread. Sum the block
  // (shuffles, 8 warp sums in __shared__, __syncthreads(), shuffles in warp 0); thread 0 adds
  // the block's sum to out[row] with atomicAdd: the row's other parts are added by other blocks.
}

// Grid: min(8 x SMs, ceil(n / 256)) blocks of 256 threads; *key is 0 on entry.
__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key) {
  // TODO(arg_max): a grid-stride loop keeps this thread's best (value, index): start from "no
  // element yet" (not from 0: the data may be all negative or -INFINITY) and replace it only
  // when x[i] is strictly larger, so the first of equal maxima stays. Combine the warp's 32
  // candidates with shuffles (the larger value; on equal values the lower index), then the
  // block's 8 through shared memory, and do one atomicMax(key, arg_max_key(value, index)) per
  // block.
}

// Grid: any number of blocks of 256 threads (the tests try several); *blocks_done is 0 on entry.
__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out) {
  // TODO(deterministic_sum), pass 1: block b takes tiles b, b + gridDim.x, ...; tile t is
  // elements t * SUM_TILE .. min(n, (t + 1) * SUM_TILE) - 1 (sum_tiles(n) tiles). In a whole
  // tile thread j adds float4 number j, j + 256, ... (16 of them, each (x + y) + (z + w)), in
  // that order; in the last, partial tile, elements j, j + 256, ... Then the block's sum (as in
  // wide_rows); thread 0 writes partials[t]; __syncthreads() before the next tile.
  // Then the ticket: thread 0 calls __threadfence() and takes atomicAdd(blocks_done, 1); the
  // block that gets gridDim.x - 1 is the last (tell the block's threads through __shared__).
  // Pass 2, the last block only: thread j adds __ldcg(&partials[j]), partials j + 256, ...; the
  // block's sum; thread 0 writes *out and sets *blocks_done = 0 for the next launch. No
  // atomicAdd on floats: the order of every addition must depend on n alone.
}

}  // namespace reduction
