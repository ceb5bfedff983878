// Lesson 11_scan, the solution: warp scans with __shfl_up_sync, block scans through one shared
// array of warp totals, reduce-then-scan over chunks of 2048-element tiles, a single-pass scan
// with a decoupled look-back (release stores, acquire loads), and stream compaction on the chunk
// structure.

#include "scan.cuh"

namespace scan {

namespace {

constexpr unsigned kFullMask = 0xffffffffu;

// Inclusive scan of v over the 32 lanes of the warp: after the step with distance d, lane l
// holds the sum of lanes max(0, l - 2d + 1) .. l. Every lane must call it.
__device__ int warp_inclusive_scan(int v) {
  const int lane = threadIdx.x % WARP_SIZE;
#pragma unroll
  for (int d = 1; d < WARP_SIZE; d *= 2) {
    const int up = __shfl_up_sync(kFullMask, v, d);  // lanes l < d get their own v back
    if (lane >= d) v += up;
  }
  return v;
}

// Inclusive scan of v over the block's BLOCK_THREADS threads; `total` receives the block's sum.
// Every thread must call it. `warp_totals` (WARPS_PER_BLOCK ints of shared memory) is written
// before the barrier and read after it: a second call may reuse the same array only after
// another barrier, so callers that scan tile after tile alternate two arrays.
__device__ int block_inclusive_scan(int v, int* warp_totals, int& total) {
  const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
  v = warp_inclusive_scan(v);
  if (lane == WARP_SIZE - 1) warp_totals[warp] = v;
  __syncthreads();
  int before = 0, sum = 0;
#pragma unroll
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) {  // 8 broadcast loads: every lane reads the same word
    const int t = warp_totals[w];
    before += w < warp ? t : 0;
    sum += t;
  }
  total = sum;
  return v + before;
}

// The sum of v over the warp, in every lane.
__device__ int warp_sum(int v) {
#pragma unroll
  for (int m = WARP_SIZE / 2; m > 0; m /= 2) v += __shfl_xor_sync(kFullMask, v, m);
  return v;
}

// The sum of v over the block, in thread 0 (every thread must call it). `warp_totals` as in
// block_inclusive_scan.
__device__ int block_sum(int v, int* warp_totals) {
  v = warp_sum(v);
  if (threadIdx.x % WARP_SIZE == 0) warp_totals[threadIdx.x / WARP_SIZE] = v;
  __syncthreads();
  int sum = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) sum += warp_totals[w];
  return sum;
}

// Thread t's ITEMS_PER_THREAD consecutive elements of the tile at `base`: two int4 loads when the
// tile is whole (base is a multiple of TILE_ITEMS, so the address is 16-byte aligned), else one
// by one with 0 past n.
__device__ void load_items(const int* __restrict__ x, long long base, long long n,
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

// The store that mirrors load_items.
__device__ void store_items(int* __restrict__ out, long long base, long long n,
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

// How many of thread t's elements of the tile at `base` exist (are below n).
__device__ int items_below(long long base, long long n) {
  const long long first = base + static_cast<long long>(threadIdx.x) * ITEMS_PER_THREAD;
  const long long left = n - first;
  return left <= 0 ? 0 : (left >= ITEMS_PER_THREAD ? ITEMS_PER_THREAD : static_cast<int>(left));
}

}  // namespace

// Grid: ceil(n / 256) blocks of 256 threads; thread t of block b on element 256b + t.
__global__ void block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                           int* __restrict__ exclusive, int n) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  const long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const int v = i < n ? x[i] : 0;  // past n: the identity, and stay for the shuffles and barrier
  int total;
  const int inc = block_inclusive_scan(v, warp_totals, total);
  if (i < n) {
    inclusive[i] = inc;
    exclusive[i] = inc - v;
  }
}

// Grid: ChunkGrid::chunks blocks of 256 threads, block b on elements [b * chunk, (b + 1) * chunk).
__global__ void reduce_chunks(const int* __restrict__ x, int* __restrict__ chunk_sums, long long n,
                              long long chunk) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int acc = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS) {
    int v[ITEMS_PER_THREAD];
    load_items(x, base, n, v);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) acc += v[k];
  }
  const int sum = block_sum(acc, warp_totals);
  if (threadIdx.x == 0) chunk_sums[blockIdx.x] = sum;
}

// Grid: one block of 256 threads; count may exceed 256.
__global__ void scan_chunk_sums(int* sums, int count) {
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

// Grid: ChunkGrid::chunks blocks of 256 threads, after scan_chunk_sums.
__global__ void scan_chunks(const int* __restrict__ x, const int* __restrict__ chunk_prefix,
                            int* __restrict__ out, long long n, long long chunk) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int carry = chunk_prefix[blockIdx.x];  // everything before this chunk
  int parity = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS, parity ^= 1) {
    int v[ITEMS_PER_THREAD];
    load_items(x, base, n, v);
#pragma unroll
    for (int k = 1; k < ITEMS_PER_THREAD; ++k) v[k] += v[k - 1];  // the thread's own scan
    int total;
    const int inc = block_inclusive_scan(v[ITEMS_PER_THREAD - 1], warp_totals[parity], total);
    const int offset = carry + inc - v[ITEMS_PER_THREAD - 1];  // + the threads before this one
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) v[k] += offset;
    store_items(out, base, n, v);
    carry += total;
  }
}

// Grid: ceil(n / 2048) blocks of 256 threads; tiles handed out by the ticket counter.
__global__ void look_back_scan(const int* __restrict__ x, int* __restrict__ out, long long n,
                               TileStatus status) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  __shared__ unsigned ticket;
  __shared__ int tile_exclusive;
  if (threadIdx.x == 0) ticket = atomicAdd(status.next_tile, 1u);
  __syncthreads();
  const long long tile = ticket;  // every tile before it belongs to a block already running
  const long long base = tile * TILE_ITEMS;

  int v[ITEMS_PER_THREAD];
  load_items(x, base, n, v);
#pragma unroll
  for (int k = 1; k < ITEMS_PER_THREAD; ++k) v[k] += v[k - 1];
  int total;
  const int inc = block_inclusive_scan(v[ITEMS_PER_THREAD - 1], warp_totals, total);

  if (threadIdx.x < WARP_SIZE) {  // warp 0 publishes and looks back
    const int lane = threadIdx.x;
    if (tile == 0) {
      if (lane == 0) {
        status.prefix[0] = total;
        store_release(&status.flag[0], TILE_PREFIX);
        tile_exclusive = 0;
      }
    } else {
      if (lane == 0) {  // the aggregate first, then the flag that announces it
        status.aggregate[tile] = total;
        store_release(&status.flag[tile], TILE_AGGREGATE);
      }
      // Look back 32 tiles at a time, lane l on tile `nearest - l`, until a tile with a prefix.
      int exclusive = 0;
      for (long long nearest = tile - 1;; nearest -= WARP_SIZE) {
        const long long t = nearest - lane;
        int flag = TILE_PREFIX, value = 0;  // before tile 0: nothing to add
        if (t >= 0) {
          do {
            flag = load_acquire(&status.flag[t]);
          } while (flag == TILE_EMPTY);
          value = flag == TILE_PREFIX ? status.prefix[t] : status.aggregate[t];
        }
        // The nearest lane with a prefix ends the look-back: lanes up to it add their value.
        const unsigned with_prefix = __ballot_sync(kFullMask, flag == TILE_PREFIX);
        const int stop = with_prefix != 0 ? __ffs(with_prefix) - 1 : WARP_SIZE - 1;
        exclusive += warp_sum(lane <= stop ? value : 0);
        if (with_prefix != 0) break;
      }
      if (lane == 0) {
        status.prefix[tile] = exclusive + total;
        store_release(&status.flag[tile], TILE_PREFIX);
        tile_exclusive = exclusive;
      }
    }
  }
  __syncthreads();
  const int offset = tile_exclusive + inc - v[ITEMS_PER_THREAD - 1];
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k) v[k] += offset;
  store_items(out, base, n, v);
}

// Grid: ChunkGrid::chunks blocks of 256 threads.
__global__ void count_chunks(const int* __restrict__ x, int* __restrict__ chunk_counts, long long n,
                             long long chunk) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int kept = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS) {
    int v[ITEMS_PER_THREAD];
    load_items(x, base, n, v);
    const int valid = items_below(base, n);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) kept += (k < valid && keep(v[k])) ? 1 : 0;
  }
  const int sum = block_sum(kept, warp_totals);
  if (threadIdx.x == 0) chunk_counts[blockIdx.x] = sum;
}

// Grid: ChunkGrid::chunks blocks of 256 threads, after scan_chunk_sums on the counts.
__global__ void compact_chunks(const int* __restrict__ x, const int* __restrict__ chunk_offset,
                               int* __restrict__ out, long long* __restrict__ count, long long n,
                               long long chunk) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  const int chunk_start = chunk_offset[blockIdx.x];
  int written = 0;  // kept elements of this chunk's earlier tiles
  int parity = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS, parity ^= 1) {
    int v[ITEMS_PER_THREAD];
    load_items(x, base, n, v);
    const int valid = items_below(base, n);
    int mine = 0;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) mine += (k < valid && keep(v[k])) ? 1 : 0;
    int total;
    const int inc = block_inclusive_scan(mine, warp_totals[parity], total);
    long long at = static_cast<long long>(chunk_start) + written + (inc - mine);
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      if (k < valid && keep(v[k])) out[at++] = v[k];
    written += total;
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0)
    *count = static_cast<long long>(chunk_start) + written;
}

}  // namespace scan
