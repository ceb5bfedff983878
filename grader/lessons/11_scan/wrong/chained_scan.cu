// Wrong on purpose (slow, not incorrect): the nearest miss of look_back without the decoupling.
// A single pass with a ticket counter and correct acquire/release ordering, but a tile publishes
// nothing until it knows its inclusive prefix, and it learns it only from its predecessor's: each
// tile waits for the one before it, so the prefixes come one after another, each a round trip
// through L2, and the look-back is a chain over all the tiles.
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
  if (threadIdx.x == 0) {
    int exclusive = 0;
    if (tile > 0) {
      while (load_acquire(&status.flag[tile - 1]) != TILE_PREFIX) {
      }
      exclusive = status.prefix[tile - 1];
    }
    status.prefix[tile] = exclusive + total;
    store_release(&status.flag[tile], TILE_PREFIX);
    tile_exclusive = exclusive;
  }
  __syncthreads();
  wrong_helpers::write_ticketed_tile(out, n, own, tile_exclusive);
}
}  // namespace scan
