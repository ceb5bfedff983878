// Wrong on purpose (slow, not incorrect): a near miss of device_scan. The same reduce-then-scan
// and the same shuffle block scan as the solution, but scan_chunks takes one element per thread:
// tiles of 256 with 4-byte loads, so a block scan and a barrier for every 256 elements instead of
// every 2,048, and 4 bytes in flight per thread instead of 32.
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
  int carry = chunk_prefix[blockIdx.x];
  int parity = 0;
  for (long long base = begin; base < end; base += BLOCK_THREADS, parity ^= 1) {
    const long long i = base + threadIdx.x;
    const int v = i < end ? x[i] : 0;
    int total;
    const int inc = wrong_helpers::block_inclusive_scan(v, warp_totals[parity], total);
    if (i < end) out[i] = carry + inc;
    carry += total;
  }
}
}  // namespace scan
