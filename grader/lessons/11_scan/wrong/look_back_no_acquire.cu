// Wrong on purpose: the solution's decoupled look-back with its memory ordering taken out. Flags
// are read with volatile loads and written with plain stores after the value, with no fence and no
// acquire or release: nothing orders a lane's load of a predecessor's aggregate or prefix after
// its load of the flag that announces it (PTX ISA, Memory Consistency Model: without a release
// and an acquire pattern, or fences, between the two threads, the write need not be visible). The
// lane loads the value in the same loop as the flag, as if the volatile flag guarded it; the
// compiler may keep the value's load from the first trip, made before the flag was set, and the
// SM's L1 may serve it stale, so the tile can add an old number. How often this shows on a given
// GPU is a matter of timing: see calibration.md.
#include "unused_kernels.cuh"

namespace scan {
UNUSED_BLOCK_SCAN
UNUSED_REDUCE_CHUNKS
UNUSED_SCAN_CHUNK_SUMS
UNUSED_SCAN_CHUNKS
UNUSED_COUNT_CHUNKS
UNUSED_COMPACT_CHUNKS

__global__ void look_back_scan(const int* __restrict__ x, int* __restrict__ out, long long n,
                               TileStatus status) {
  __shared__ int warp_totals[WARPS_PER_BLOCK];
  __shared__ unsigned ticket;
  __shared__ int tile_exclusive;
  if (threadIdx.x == 0) ticket = atomicAdd(status.next_tile, 1u);
  __syncthreads();
  const long long tile = ticket;
  const long long base = tile * TILE_ITEMS;
  int v[ITEMS_PER_THREAD];
  wrong_helpers::load_items(x, base, n, v);
  for (int k = 1; k < ITEMS_PER_THREAD; ++k) v[k] += v[k - 1];
  int total;
  const int inc = wrong_helpers::block_inclusive_scan(v[ITEMS_PER_THREAD - 1], warp_totals, total);
  volatile int* flags = status.flag;
  if (threadIdx.x < WARP_SIZE) {
    const int lane = threadIdx.x;
    if (tile == 0) {
      if (lane == 0) {
        status.prefix[0] = total;
        flags[0] = TILE_PREFIX;  // no release: nothing orders it after the prefix
        tile_exclusive = 0;
      }
    } else {
      if (lane == 0) {
        status.aggregate[tile] = total;
        flags[tile] = TILE_AGGREGATE;
      }
      int exclusive = 0;
      for (long long nearest = tile - 1;; nearest -= WARP_SIZE) {
        const long long t = nearest - lane;
        int flag = TILE_PREFIX, value = 0;
        if (t >= 0) {
          do {  // no acquire: the value's load is not ordered after the flag's
            flag = flags[t];
            value = flag == TILE_PREFIX ? status.prefix[t] : status.aggregate[t];
          } while (flag == TILE_EMPTY);
        }
        const unsigned with_prefix = __ballot_sync(wrong_helpers::kFullMask, flag == TILE_PREFIX);
        const int stop = with_prefix != 0 ? __ffs(with_prefix) - 1 : WARP_SIZE - 1;
        exclusive += wrong_helpers::warp_sum(lane <= stop ? value : 0);
        if (with_prefix != 0) break;
      }
      if (lane == 0) {
        status.prefix[tile] = exclusive + total;
        flags[tile] = TILE_PREFIX;
        tile_exclusive = exclusive;
      }
    }
  }
  __syncthreads();
  const int offset = tile_exclusive + inc - v[ITEMS_PER_THREAD - 1];
  for (int k = 0; k < ITEMS_PER_THREAD; ++k) v[k] += offset;
  wrong_helpers::store_items(out, base, n, v);
}
}  // namespace scan
