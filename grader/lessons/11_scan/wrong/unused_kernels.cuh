// Wrong-kernel submissions are graded only on the step the manifest names. The kernels of the
// other steps are empty here (never graded in that variant), except the ones a graded step's
// launcher also runs, which are the solution's (SOLUTION_*); the helpers are the solution's.
#pragma once
#include "scan.cuh"

namespace scan {
namespace wrong_helpers {

constexpr unsigned kFullMask = 0xffffffffu;

// Inclusive scan of v over the warp's 32 lanes.
__device__ inline int warp_inclusive_scan(int v) {
  const int lane = threadIdx.x % WARP_SIZE;
#pragma unroll
  for (int d = 1; d < WARP_SIZE; d *= 2) {
    const int up = __shfl_up_sync(kFullMask, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// Inclusive scan of v over the block; `total` gets the block's sum. Callers scanning tile after
// tile alternate two `warp_totals` arrays.
__device__ inline int block_inclusive_scan(int v, int* warp_totals, int& total) {
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = warp_inclusive_scan(v);
  if (lane == WARP_SIZE - 1) warp_totals[warp] = v;
  __syncthreads();
  int before = 0, sum = 0;
#pragma unroll
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) {
    const int t = warp_totals[w];
    before += w < warp ? t : 0;
    sum += t;
  }
  total = sum;
  return v + before;
}

// The textbook block scan (Hillis and Steele), double-buffered: log2(256) = 8 levels, each
// reading one array and writing the other, a barrier after each. `total` gets the block's sum.
__device__ inline int naive_block_inclusive_scan(int v, int (*buffers)[BLOCK_THREADS], int& total) {
  const int t = threadIdx.x;
  int from = 0;
  buffers[0][t] = v;
  __syncthreads();
  for (int d = 1; d < BLOCK_THREADS; d *= 2) {
    const int s = buffers[from][t] + (t >= d ? buffers[from][t - d] : 0);
    buffers[1 - from][t] = s;
    from = 1 - from;
    __syncthreads();
  }
  const int inc = buffers[from][t];
  total = buffers[from][BLOCK_THREADS - 1];
  __syncthreads();  // the buffers are read before the next call writes them
  return inc;
}

__device__ inline int warp_sum(int v) {
#pragma unroll
  for (int m = WARP_SIZE / 2; m > 0; m /= 2) v += __shfl_xor_sync(kFullMask, v, m);
  return v;
}

// The block's sum of v, in thread 0.
__device__ inline int block_sum(int v) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  v = warp_sum(v);
  if (threadIdx.x % WARP_SIZE == 0) warp_totals[threadIdx.x / WARP_SIZE] = v;
  __syncthreads();
  int sum = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) sum += warp_totals[w];
  return sum;
}

// Thread t's 8 consecutive elements of the tile at `base` (0 past n), and their store.
__device__ inline void load_items(const int* __restrict__ x, long long base, long long n,
                                  int (&v)[ITEMS_PER_THREAD]) {
  const long long first = base + static_cast<long long>(threadIdx.x) * ITEMS_PER_THREAD;
  if (base + TILE_ITEMS <= n) {
    const int4* p = reinterpret_cast<const int4*>(x + first);
    const int4 a = p[0], b = p[1];
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w;
    v[4] = b.x, v[5] = b.y, v[6] = b.z, v[7] = b.w;
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) v[k] = first + k < n ? x[first + k] : 0;
  }
}

__device__ inline void store_items(int* __restrict__ out, long long base, long long n,
                                   const int (&v)[ITEMS_PER_THREAD]) {
  const long long first = base + static_cast<long long>(threadIdx.x) * ITEMS_PER_THREAD;
  if (base + TILE_ITEMS <= n) {
    int4* p = reinterpret_cast<int4*>(out + first);
    p[0] = make_int4(v[0], v[1], v[2], v[3]);
    p[1] = make_int4(v[4], v[5], v[6], v[7]);
  } else {
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      if (first + k < n) out[first + k] = v[k];
  }
}

__device__ inline int items_below(long long base, long long n) {
  const long long first = base + static_cast<long long>(threadIdx.x) * ITEMS_PER_THREAD;
  const long long left = n - first;
  return left <= 0 ? 0 : (left >= ITEMS_PER_THREAD ? ITEMS_PER_THREAD : static_cast<int>(left));
}

// The solution's reduce_chunks (counting keep() instead when `count_kept`).
__device__ inline void reduce_chunk(const int* __restrict__ x, int* __restrict__ sums, long long n,
                                    long long chunk, bool count_kept) {
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int acc = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS) {
    int v[ITEMS_PER_THREAD];
    load_items(x, base, n, v);
    const int valid = items_below(base, n);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      acc += count_kept ? (k < valid && keep(v[k]) ? 1 : 0) : v[k];
  }
  const int sum = block_sum(acc);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}

// The solution's scan_chunk_sums.
__device__ inline void exclusive_scan_in_place(int* sums, int count) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];
  int carry = 0;
  for (int base = 0, parity = 0; base < count; base += BLOCK_THREADS, parity ^= 1) {
    const int i = base + static_cast<int>(threadIdx.x);
    const int v = i < count ? sums[i] : 0;
    int total;
    const int inc = block_inclusive_scan(v, warp_totals[parity], total);
    if (i < count) sums[i] = carry + inc - v;
    carry += total;
  }
}

// The look-back kernels' own work around the look-back: a tile from the ticket counter, scanned
// (v: each element's inclusive sum within the thread's 8, inc: the block's inclusive scan of the
// threads' totals, total: the tile's sum), and at the end the tile written from its exclusive
// prefix.
struct TicketedTile {
  long long tile = 0, base = 0;
  int v[ITEMS_PER_THREAD];
  int inc = 0, total = 0;
};

__device__ inline TicketedTile scan_ticketed_tile(const int* __restrict__ x, long long n,
                                                  unsigned* next_tile) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(next_tile, 1u);
  __syncthreads();
  TicketedTile t;
  t.tile = ticket;
  t.base = t.tile * TILE_ITEMS;
  load_items(x, t.base, n, t.v);
  for (int k = 1; k < ITEMS_PER_THREAD; ++k) t.v[k] += t.v[k - 1];
  t.inc = block_inclusive_scan(t.v[ITEMS_PER_THREAD - 1], warp_totals, t.total);
  return t;
}

// `exclusive`: the sum of every tile before this one, the same in every thread.
__device__ inline void write_ticketed_tile(int* __restrict__ out, long long n, TicketedTile& t,
                                           int exclusive) {
  const int offset = exclusive + t.inc - t.v[ITEMS_PER_THREAD - 1];
  for (int k = 0; k < ITEMS_PER_THREAD; ++k) t.v[k] += offset;
  store_items(out, t.base, n, t.v);
}

}  // namespace wrong_helpers
}  // namespace scan

#define UNUSED_BLOCK_SCAN \
  __global__ void block_scan(const int* __restrict__, int* __restrict__, int* __restrict__, int) {}
#define UNUSED_REDUCE_CHUNKS \
  __global__ void reduce_chunks(const int* __restrict__, int* __restrict__, long long, long long) {}
#define UNUSED_SCAN_CHUNK_SUMS \
  __global__ void scan_chunk_sums(int*, int) {}
#define UNUSED_SCAN_CHUNKS                                                                         \
  __global__ void scan_chunks(const int* __restrict__, const int* __restrict__, int* __restrict__, \
                              long long, long long) {}
#define UNUSED_LOOK_BACK_SCAN                                                           \
  __global__ void look_back_scan(const int* __restrict__, int* __restrict__, long long, \
                                 TileStatus) {}
#define UNUSED_COUNT_CHUNKS \
  __global__ void count_chunks(const int* __restrict__, int* __restrict__, long long, long long) {}
#define UNUSED_COMPACT_CHUNKS                                                           \
  __global__ void compact_chunks(const int* __restrict__, const int* __restrict__,      \
                                 int* __restrict__, long long* __restrict__, long long, \
                                 long long) {}

#define SOLUTION_REDUCE_CHUNKS                                                           \
  __global__ void reduce_chunks(const int* __restrict__ x, int* __restrict__ chunk_sums, \
                                long long n, long long chunk) {                          \
    wrong_helpers::reduce_chunk(x, chunk_sums, n, chunk, false);                         \
  }
#define SOLUTION_COUNT_CHUNKS                                                             \
  __global__ void count_chunks(const int* __restrict__ x, int* __restrict__ chunk_counts, \
                               long long n, long long chunk) {                            \
    wrong_helpers::reduce_chunk(x, chunk_counts, n, chunk, true);                         \
  }
#define SOLUTION_SCAN_CHUNK_SUMS                          \
  __global__ void scan_chunk_sums(int* sums, int count) { \
    wrong_helpers::exclusive_scan_in_place(sums, count);  \
  }
