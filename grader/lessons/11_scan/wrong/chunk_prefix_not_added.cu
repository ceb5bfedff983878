// Wrong on purpose: scan_chunks scans each chunk from 0 and never adds chunk_prefix[blockIdx.x],
// the scan of the chunk sums that the two kernels before it computed: the block sums are never
// added back. Every chunk is a correct scan of itself; the whole array is right only when the
// grid has one chunk.
#include "unused_kernels.cuh"

namespace scan {
UNUSED_BLOCK_SCAN
SOLUTION_REDUCE_CHUNKS
SOLUTION_SCAN_CHUNK_SUMS
UNUSED_LOOK_BACK_SCAN
UNUSED_COUNT_CHUNKS
UNUSED_COMPACT_CHUNKS

__global__ void scan_chunks(const int* __restrict__ x, const int* __restrict__ chunk_prefix,
                            int* __restrict__ out, long long n, long long chunk) {
  __shared__ int warp_totals[2][WARPS_PER_BLOCK];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  (void)chunk_prefix;
  int carry = 0;  // should start at chunk_prefix[blockIdx.x]
  int parity = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS, parity ^= 1) {
    int v[ITEMS_PER_THREAD];
    wrong_helpers::load_items(x, base, n, v);
    for (int k = 1; k < ITEMS_PER_THREAD; ++k) v[k] += v[k - 1];
    int total;
    const int inc =
        wrong_helpers::block_inclusive_scan(v[ITEMS_PER_THREAD - 1], warp_totals[parity], total);
    const int offset = carry + inc - v[ITEMS_PER_THREAD - 1];
    for (int k = 0; k < ITEMS_PER_THREAD; ++k) v[k] += offset;
    wrong_helpers::store_items(out, base, n, v);
    carry += total;
  }
}
}  // namespace scan
