// Wrong on purpose (slow, not incorrect): the nearest miss of compact. Right places, right order,
// right count, but compact_chunks takes one element per thread, tiles of 256 with 4-byte loads,
// and scans the tile's flags with the textbook double-buffered Hillis-Steele scan in shared
// memory: 8 levels and 9 barriers per 256 elements.
#include "unused_kernels.cuh"

namespace scan {
UNUSED_BLOCK_SCAN
UNUSED_REDUCE_CHUNKS
UNUSED_SCAN_CHUNKS
UNUSED_LOOK_BACK_SCAN
SOLUTION_SCAN_CHUNK_SUMS
SOLUTION_COUNT_CHUNKS

__global__ void compact_chunks(const int* __restrict__ x, const int* __restrict__ chunk_offset,
                               int* __restrict__ out, long long* __restrict__ count, long long n,
                               long long chunk) {
  __shared__ int buffers[2][BLOCK_THREADS];
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  const long long start = chunk_offset[blockIdx.x];
  int written = 0;
  for (long long base = begin; base < end; base += BLOCK_THREADS) {
    const long long i = base + threadIdx.x;
    const int v = i < end ? x[i] : 0;
    const int flag = i < end && keep(v) ? 1 : 0;
    int total;
    const int inc = wrong_helpers::naive_block_inclusive_scan(flag, buffers, total);
    if (flag) out[start + written + inc - 1] = v;
    written += total;
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *count = start + written;
}
}  // namespace scan
