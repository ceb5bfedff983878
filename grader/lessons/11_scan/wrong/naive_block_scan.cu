// Wrong on purpose (slow, not incorrect): the nearest miss of device_scan. The same
// reduce-then-scan (the solution's reduce_chunks and scan_chunk_sums), but scan_chunks takes one
// element per thread, tiles of 256 with 4-byte loads, and scans each tile with the textbook
// double-buffered Hillis-Steele scan in shared memory: 8 levels, a barrier after each, for every
// 256 elements, where the solution has one barrier and five shuffles per 2,048.
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
  __shared__ int buffers[2][BLOCK_THREADS];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int carry = chunk_prefix[blockIdx.x];
  for (long long base = begin; base < end; base += BLOCK_THREADS) {
    const long long i = base + threadIdx.x;
    const int v = i < end ? x[i] : 0;
    int total;
    const int inc = wrong_helpers::naive_block_inclusive_scan(v, buffers, total);
    if (i < end) out[i] = carry + inc;
    carry += total;
  }
}
}  // namespace scan
