// A student's trial of lesson 11_scan (tenth session, written from the texts alone on a
// machine without a GPU; compiled for sm_90, never run). Grade it on a GPU: copy it over
// exercises/11_scan/scan.cu in a scratch clone, run ./build/grader 11_scan and --sanitize.

// Lesson 11_scan: complete the kernels below, then run `./build/grader 11_scan`.
//
// The launches are in lessons/11_scan/launch.cu and are not yours to change: blocks of 256
// threads (8 warps), the grids written next to each kernel. The header lessons/11_scan/scan.cuh
// documents every kernel; README.md explains the lesson.
//
//   step block_scan:  each block scans its own 256 elements, inclusive and exclusive
//   step device_scan: reduce_chunks, scan_chunk_sums, scan_chunks: the whole array's scan
//   step look_back:   look_back_scan, the same scan in one pass (optional, the stretch)
//   step compact:     count_chunks, (scan_chunk_sums again), compact_chunks: keep x > 0, in order
//
// Write __device__ helpers above the kernels (a warp scan, a block scan, a tile's load and store)
// and use them in every step: each step builds on the one before it.
#include "scan.cuh"

namespace scan {

namespace {

constexpr unsigned FULL_MASK = 0xffffffffu;

// Inclusive scan of the 32 lanes of a warp: lane l gets v[0] + ... + v[l]. Every lane of the warp
// must call it (full mask).
__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
  for (int d = 1; d < WARP_SIZE; d *= 2) {
    const int up = __shfl_up_sync(FULL_MASK, v, d);
    if (lane >= d) v += up;
  }
  return v;
}

// Sum of the 32 lanes of a warp, in every lane.
__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int m = WARP_SIZE / 2; m > 0; m /= 2) v += __shfl_xor_sync(FULL_MASK, v, m);
  return v;
}

// Inclusive scan of one value per thread over the whole block (BLOCK_THREADS threads): returns
// v[0] + ... + v[threadIdx.x] and writes the block's total to *block_total (in every thread).
// Every thread of the block must call it (one __syncthreads inside). `warp_totals` is a
// __shared__ int[WARPS_PER_BLOCK]: written before the barrier, read after it. A caller that scans
// again in a loop must pass a different array the next time (or put a barrier in between), or a
// fast warp may overwrite totals a slow warp is still reading.
__device__ __forceinline__ int block_inclusive_scan(int v, int* warp_totals, int* block_total) {
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  v = warp_inclusive_scan(v, lane);
  if (lane == WARP_SIZE - 1) warp_totals[warp] = v;
  __syncthreads();
  int below = 0, total = 0;
#pragma unroll
  for (int w = 0; w < WARPS_PER_BLOCK; ++w) {
    const int t = warp_totals[w];  // every lane of a warp reads the same word: a broadcast
    if (w < warp) below += t;
    total += t;
  }
  *block_total = total;
  return v + below;
}

// Thread t's 8 consecutive elements of the tile starting at `base` (base + 8t .. base + 8t + 7):
// two int4 loads when the tile is whole (base + TILE_ITEMS <= end), else one at a time with 0 at
// and past `end`. base is a multiple of TILE_ITEMS, so x + base + 8t is 32-byte aligned.
__device__ __forceinline__ void load_thread_items(const int* __restrict__ x, long long base,
                                                  long long end, int (&v)[ITEMS_PER_THREAD]) {
  const long long first = base + static_cast<long long>(threadIdx.x) * ITEMS_PER_THREAD;
  if (base + TILE_ITEMS <= end) {
    const int4* p = reinterpret_cast<const int4*>(x + first);
    const int4 a = p[0];
    const int4 b = p[1];
    v[0] = a.x;
    v[1] = a.y;
    v[2] = a.z;
    v[3] = a.w;
    v[4] = b.x;
    v[5] = b.y;
    v[6] = b.z;
    v[7] = b.w;
  } else {
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) v[j] = first + j < end ? x[first + j] : 0;
  }
}

// The matching store: two int4 stores for a whole tile, else one at a time below `end`.
__device__ __forceinline__ void store_thread_items(int* __restrict__ out, long long base,
                                                   long long end,
                                                   const int (&v)[ITEMS_PER_THREAD]) {
  const long long first = base + static_cast<long long>(threadIdx.x) * ITEMS_PER_THREAD;
  if (base + TILE_ITEMS <= end) {
    int4* p = reinterpret_cast<int4*>(out + first);
    p[0] = make_int4(v[0], v[1], v[2], v[3]);
    p[1] = make_int4(v[4], v[5], v[6], v[7]);
  } else {
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      if (first + j < end) out[first + j] = v[j];
  }
}

// Reduction of a chunk, order-free: for a sum or a count the order of the elements does not
// matter, so each thread takes the fully coalesced int4 at base + 4t and base + 1024 + 4t (every
// warp instruction reads 512 consecutive bytes) rather than its 8 consecutive elements.
// Op(v) maps an element to what is added (the element itself, or keep(v)).
template <typename Op>
__device__ __forceinline__ int thread_chunk_reduce(const int* __restrict__ x, long long begin,
                                                   long long end, Op op) {
  constexpr int HALF = TILE_ITEMS / 2;  // 1024 elements: 256 threads x one int4
  int sum = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS) {
    const long long i = base + 4LL * threadIdx.x;
    if (base + TILE_ITEMS <= end) {
      const int4 a = *reinterpret_cast<const int4*>(x + i);
      const int4 b = *reinterpret_cast<const int4*>(x + i + HALF);
      sum += op(a.x) + op(a.y) + op(a.z) + op(a.w) + op(b.x) + op(b.y) + op(b.z) + op(b.w);
    } else {
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const long long k = i + h * HALF + j;
          if (k < end) sum += op(x[k]);
        }
    }
  }
  return sum;
}

struct Identity {
  __device__ int operator()(int v) const { return v; }
};
struct KeepCount {
  __device__ int operator()(int v) const { return keep(v) ? 1 : 0; }
};

// The block's sum of one value per thread, written by thread 0 to *dst.
__device__ __forceinline__ void block_sum_to(int v, int* dst) {
  __shared__ int warp_sums[WARPS_PER_BLOCK];
  v = warp_sum(v);
  const int lane = threadIdx.x % WARP_SIZE;
  const int warp = threadIdx.x / WARP_SIZE;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int total = 0;
#pragma unroll
    for (int w = 0; w < WARPS_PER_BLOCK; ++w) total += warp_sums[w];
    *dst = total;
  }
}

}  // namespace

// Grid: ceil(n / 256) blocks of 256 threads; thread t of block b on element 256b + t.
__global__ void block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                           int* __restrict__ exclusive, int n) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  // 64-bit: blockIdx.x * 256 + 255 can pass INT_MAX when n is near it.
  const long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const int v = i < n ? x[i] : 0;  // past n: the identity, and the thread stays
  int block_total;
  const int inc = block_inclusive_scan(v, warp_totals, &block_total);
  if (i < n) {
    inclusive[i] = inc;
    exclusive[i] = inc - v;
  }
}

// Grid: ChunkGrid::chunks blocks of 256 threads, block b on elements [b * chunk, (b + 1) * chunk).
__global__ void reduce_chunks(const int* __restrict__ x, int* __restrict__ chunk_sums, long long n,
                              long long chunk) {
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  const int s = thread_chunk_reduce(x, begin, end, Identity{});
  block_sum_to(s, &chunk_sums[blockIdx.x]);
}

// Grid: one block of 256 threads; count may exceed 256.
__global__ void scan_chunk_sums(int* sums, int count) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];  // two arrays in turn (README §2)
  int carry = 0;
  int round = 0;
  for (int base = 0; base < count; base += BLOCK_THREADS, ++round) {
    const int i = base + static_cast<int>(threadIdx.x);
    const int v = i < count ? sums[i] : 0;
    int round_total;
    const int inc = block_inclusive_scan(v, warp_totals[round & 1], &round_total);
    if (i < count) sums[i] = carry + inc - v;  // exclusive, in place
    carry += round_total;
  }
}

// Grid: ChunkGrid::chunks blocks of 256 threads, after scan_chunk_sums.
__global__ void scan_chunks(const int* __restrict__ x, const int* __restrict__ chunk_prefix,
                            int* __restrict__ out, long long n, long long chunk) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int carry = chunk_prefix[blockIdx.x];
  int round = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS, ++round) {
    int v[ITEMS_PER_THREAD];
    load_thread_items(x, base, end, v);
#pragma unroll
    for (int j = 1; j < ITEMS_PER_THREAD; ++j) v[j] += v[j - 1];  // the thread's own scan
    const int own = v[ITEMS_PER_THREAD - 1];
    int tile_total;
    const int inc = block_inclusive_scan(own, warp_totals[round & 1], &tile_total);
    const int offset = carry + inc - own;  // everything before this thread's first element
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) v[j] += offset;
    store_thread_items(out, base, end, v);
    carry += tile_total;
  }
}

// Grid: ceil(n / 2048) blocks of 256 threads, status zeroed by the launcher.
__global__ void look_back_scan(const int* __restrict__ x, int* __restrict__ out, long long n,
                               TileStatus status) {
  __shared__ unsigned s_tile;
  __shared__ int s_exclusive;
  __shared__ int warp_totals[WARPS_PER_BLOCK];

  // The ticket: tiles are handed out in the order blocks start, so every tile before ours
  // belongs to a block that is already running.
  if (threadIdx.x == 0) s_tile = atomicAdd(status.next_tile, 1u);
  __syncthreads();
  const long long tile = s_tile;
  const long long base = tile * TILE_ITEMS;

  int v[ITEMS_PER_THREAD];
  load_thread_items(x, base, n, v);
#pragma unroll
  for (int j = 1; j < ITEMS_PER_THREAD; ++j) v[j] += v[j - 1];
  const int own = v[ITEMS_PER_THREAD - 1];
  int aggregate;
  const int inc = block_inclusive_scan(own, warp_totals, &aggregate);

  const int lane = threadIdx.x % WARP_SIZE;
  if (threadIdx.x < WARP_SIZE) {  // warp 0 publishes and looks back
    if (tile == 0) {
      if (lane == 0) {
        status.prefix[0] = aggregate;
        store_release(&status.flag[0], TILE_PREFIX);
        s_exclusive = 0;
      }
    } else {
      // Publish the aggregate before looking back: a later tile may be waiting for it.
      if (lane == 0) {
        status.aggregate[tile] = aggregate;
        store_release(&status.flag[tile], TILE_AGGREGATE);
      }
      int exclusive = 0;
      long long window = tile - 1;  // lane l reads tile window - l
      while (true) {
        const long long t = window - lane;
        int f = TILE_PREFIX;  // before tile 0: nothing, as if a prefix of 0 (never reached past
        int val = 0;          // tile 0, which always publishes a prefix)
        if (t >= 0) {
          // Spin only on a tile a running block owns: it publishes its aggregate without waiting.
          do {
            f = load_acquire(&status.flag[t]);
          } while (f == TILE_EMPTY);
          // After the acquire load: the value the flag announces is visible.
          val = f == TILE_PREFIX ? status.prefix[t] : status.aggregate[t];
        }
        const unsigned has_prefix = __ballot_sync(FULL_MASK, f == TILE_PREFIX);
        if (has_prefix != 0) {
          const int stop = __ffs(has_prefix) - 1;  // the nearest tile with a prefix
          exclusive += warp_sum(lane <= stop ? val : 0);
          break;
        }
        exclusive += warp_sum(val);  // 32 aggregates, no prefix yet: the next window back
        window -= WARP_SIZE;
      }
      if (lane == 0) {
        status.prefix[tile] = exclusive + aggregate;
        store_release(&status.flag[tile], TILE_PREFIX);
        s_exclusive = exclusive;
      }
    }
  }
  __syncthreads();
  const int offset = s_exclusive + inc - own;
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD; ++j) v[j] += offset;
  store_thread_items(out, base, n, v);
}

// Grid: ChunkGrid::chunks blocks of 256 threads.
__global__ void count_chunks(const int* __restrict__ x, int* __restrict__ chunk_counts, long long n,
                             long long chunk) {
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  const int c = thread_chunk_reduce(x, begin, end, KeepCount{});
  block_sum_to(c, &chunk_counts[blockIdx.x]);
}

// Grid: ChunkGrid::chunks blocks of 256 threads, after scan_chunk_sums on the counts.
// __launch_bounds__(256, 8): chunk_grid() sizes the grid of *every* chunk kernel (device_scan's
// too) from the least blocks per SM over reduce_chunks, scan_chunks, count_chunks and this one
// (scan.cuh, chunk_grid). Without the bound this kernel took 40 registers, which fits 6 blocks
// of 256 per SM instead of 8, and would shrink scan_chunks' grid as well. With it: 32, no spills.
// Only where 8 blocks of 256 fit at all (2,048 threads per SM: sm_80, sm_90, sm_100); elsewhere
// (sm_75: 1,024; sm_86/89: 1,536) ptxas ignores it with a warning, so ask for nothing there.
#if defined(__CUDA_ARCH__) && \
    (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000)
#define COMPACT_MIN_BLOCKS 8
#else
#define COMPACT_MIN_BLOCKS 1
#endif
__global__ void __launch_bounds__(BLOCK_THREADS, COMPACT_MIN_BLOCKS)
    compact_chunks(const int* __restrict__ x, const int* __restrict__ chunk_offset,
                   int* __restrict__ out, long long* __restrict__ count, long long n,
                   long long chunk) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int carry = chunk_offset[blockIdx.x];  // kept elements before this chunk
  int round = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS, ++round) {
    int v[ITEMS_PER_THREAD];
    load_thread_items(x, base, end, v);  // 0 past end: keep(0) is false
    int mine = 0;
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j) mine += keep(v[j]) ? 1 : 0;
    int tile_kept;
    const int inc = block_inclusive_scan(mine, warp_totals[round & 1], &tile_kept);
    int place = carry + inc - mine;  // kept before this thread's first element
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      if (keep(v[j])) out[place++] = v[j];
    carry += tile_kept;
  }
  // The last chunk ends at n: its running count is the total.
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *count = carry;
}

}  // namespace scan
