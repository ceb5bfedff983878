// Wrong on purpose (a cheat the timing must defeat): the solution's reduce_chunks and
// scan_chunk_sums, and a serial scan_chunks, right on every launch whose n differs from the last
// complete one; on the same n again scan_chunks returns at once. The timed launches repeat one n
// on fresh inputs and poisoned outputs, so they leave out unwritten, and the check of the timed
// outputs must say so.
#include "unused_kernels.cuh"

namespace scan {
UNUSED_BLOCK_SCAN
SOLUTION_REDUCE_CHUNKS
SOLUTION_SCAN_CHUNK_SUMS
UNUSED_LOOK_BACK_SCAN
UNUSED_COUNT_CHUNKS
UNUSED_COMPACT_CHUNKS

namespace {
__device__ long long seen_n = -1;  // the last complete launch's n
__device__ unsigned blocks_done = 0;
}  // namespace

__global__ void scan_chunks(const int* __restrict__ x, const int* __restrict__ chunk_prefix,
                            int* __restrict__ out, long long n, long long chunk) {
  if (seen_n == n) return;  // "nothing can have changed"
  // Right and slow: thread 0 of each block scans the block's chunk alone, one element after the
  // other, from the chunk's prefix.
  if (threadIdx.x == 0) {
    const long long begin = static_cast<long long>(blockIdx.x) * chunk;
    const long long end = begin + chunk < n ? begin + chunk : n;
    int sum = chunk_prefix[blockIdx.x];
    for (long long i = begin; i < end; ++i) out[i] = sum += x[i];
  }
  // The last block to finish records n, so that no block of this launch skips.
  __syncthreads();
  if (threadIdx.x != 0) return;
  __threadfence();
  if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
    seen_n = n;
    blocks_done = 0;
  }
}
}  // namespace scan
