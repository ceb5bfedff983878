// Wrong on purpose: the chunks' places are right (count_chunks and scan_chunk_sums are the
// solution's), and so is the count, but inside a tile each kept element takes its place from
// atomicAdd on a shared counter, element 0 of every thread first, then element 1, and so on. The
// elements land in the order the threads ask, not the order of x: thread t's element 8t + 1
// comes after thread t + 1's element 8t + 8. The right values and the right count, in another
// order.
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
  __shared__ int taken;
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  const long long start = chunk_offset[blockIdx.x];
  int written = 0;
  for (long long base = begin; base < end; base += TILE_ITEMS) {
    if (threadIdx.x == 0) taken = 0;
    __syncthreads();
    int v[ITEMS_PER_THREAD];
    wrong_helpers::load_items(x, base, n, v);
    const int valid = wrong_helpers::items_below(base, n);
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
      if (k < valid && keep(v[k])) out[start + written + atomicAdd(&taken, 1)] = v[k];
    __syncthreads();
    written += taken;
    __syncthreads();  // every thread has read `taken` before the next tile resets it
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) *count = start + written;
}
}  // namespace scan
