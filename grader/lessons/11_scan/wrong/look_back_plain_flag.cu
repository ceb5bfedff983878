// Wrong on purpose: the look-back reads the flags with ordinary loads, neither volatile nor atomic
// (and publishes them with ordinary stores). Nothing tells the compiler that another block
// changes the flag while this thread waits, so it loads the flag once: nvcc 13.0 for sm_90 emits
// one ld.global before the spin loop and a loop that branches to itself. Any lane that finds its
// predecessor still TILE_EMPTY on that one read waits forever: on the large sizes, where tiles
// are in flight together, the kernel does not finish. An acquire load (or a volatile one) is
// re-executed on every trip.
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
  __shared__ int tile_exclusive;
  wrong_helpers::TicketedTile own = wrong_helpers::scan_ticketed_tile(x, n, status.next_tile);
  const long long tile = own.tile;
  const int total = own.total;
  int* flags = status.flag;  // ordinary accesses
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
          while ((flag = status.flag[t]) == TILE_EMPTY) {  // loaded once: hoisted
          }
          value = flag == TILE_PREFIX ? status.prefix[t] : status.aggregate[t];
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
  wrong_helpers::write_ticketed_tile(out, n, own, tile_exclusive);
}
}  // namespace scan
