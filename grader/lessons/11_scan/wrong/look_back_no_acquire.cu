// Wrong on purpose: the solution's decoupled look-back with its memory ordering taken out, the way
// a look-back is often first written: the value, then the flag, with plain and volatile stores,
// and on the reader's side a volatile load of the flag in a spin loop followed by an ordinary load
// of the value. No release, no acquire, no fence, so the PTX memory consistency model does not
// promise that the value read is the one written before the flag. What nvcc 13.0 makes of it for
// sm_90: ld.volatile for the flag and a plain ld.global (L1-cacheable) for the value, after the
// loop. The value is then stale only if the SM's L1, which is not kept coherent with other SMs'
// writes, still holds its 128-byte line from an earlier load (another lane of the window, or
// another block on the same SM, that read a neighbouring tile's word before this one was
// written), or if the two stores reach L2 out of order. Both depend on timing: it failed in the
// one H200 run so far (calibration.md); whether it fails on every run is not measured yet, and the
// entry is removed from the catalogue if it does not. look_back_plain_flag is the reliable member
// of this family.
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
          do {  // a volatile flag, then an ordinary load: no acquire, no fence
            flag = flags[t];
          } while (flag == TILE_EMPTY);
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
