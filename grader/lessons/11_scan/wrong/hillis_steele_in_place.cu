// Wrong on purpose: the textbook Hillis-Steele scan on a single shared array. At the level with
// distance d, thread t reads s[t - d] and writes s[t], and thread t - d may already have written
// its new s[t - d] in the same level: a read-after-write race between warps (within a warp the
// load of all lanes comes before the store). The barrier after the writes does not help; a
// second array (double buffering) or a barrier between the read and the write does. The warps of
// a block often run in step, so the results are often right: racecheck must report the hazard.
#include "unused_kernels.cuh"

namespace scan {
UNUSED_REDUCE_CHUNKS
UNUSED_SCAN_CHUNK_SUMS
UNUSED_SCAN_CHUNKS
UNUSED_LOOK_BACK_SCAN
UNUSED_COUNT_CHUNKS
UNUSED_COMPACT_CHUNKS

__global__ void block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                           int* __restrict__ exclusive, int n) {
  __shared__ int s[BLOCK_THREADS];
  const int t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + t;
  const int v = i < n ? x[i] : 0;
  s[t] = v;
  __syncthreads();
  for (int d = 1; d < BLOCK_THREADS; d *= 2) {
    if (t >= d) s[t] += s[t - d];  // races with thread t - d's write of s[t - d]
    __syncthreads();
  }
  if (i < n) {
    inclusive[i] = s[t];
    exclusive[i] = s[t] - v;
  }
}
}  // namespace scan
