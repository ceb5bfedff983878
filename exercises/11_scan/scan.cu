// Lesson 11_scan: complete the kernels below, then run `./build/grader 11_scan`.
//
// The launches are in lessons/11_scan/launch.cu and are not yours to change: blocks of 256
// threads (8 warps), the grids written next to each kernel. The header lessons/11_scan/scan.cuh
// documents every kernel; README.md explains the lesson.
//
//   step block_scan:  each block scans its own 256 elements, inclusive and exclusive
//   step device_scan: reduce_chunks, scan_chunk_sums, scan_chunks: the whole array's scan
//   step look_back:   look_back_scan, the same scan in one pass (optional, the stretch)
//   step compact:     count_chunks, (scan_chunk_sums again), compact_chunks: keep x > 0, in order
//
// Write __device__ helpers above the kernels (a warp scan, a block scan, a tile's load and store)
// and use them in every step: each step builds on the one before it.
#include "scan.cuh"

namespace scan {

// Grid: ceil(n / 256) blocks of 256 threads; thread t of block b on element 256b + t.
__global__ void block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                           int* __restrict__ exclusive, int n) {
  // TODO(block_scan): load x[i] (0 past n: such threads must stay for the shuffles and the
  // barrier). Scan the warp with five __shfl_up_sync steps (distance 1, 2, 4, 8, 16; a lane adds
  // what it receives only when lane >= distance). Lane 31 stores its warp's total in a
  // __shared__ int[8]; __syncthreads(); each thread adds the totals of the warps before its own.
  // Write inclusive[i] and exclusive[i] = inclusive[i] - x[i] for i < n.
}

// Grid: ChunkGrid::chunks blocks of 256 threads, block b on elements [b * chunk, (b + 1) * chunk).
__global__ void reduce_chunks(const int* __restrict__ x, int* __restrict__ chunk_sums, long long n,
                              long long chunk) {
  // TODO(device_scan): sum the chunk's tiles of 2048 elements, each thread its 8 consecutive
  // elements per tile (two int4 loads when the tile is whole, one by one past the end), then the
  // block's sum into chunk_sums[blockIdx.x].
}

// Grid: one block of 256 threads; count may exceed 256.
__global__ void scan_chunk_sums(int* sums, int count) {
  // TODO(device_scan): the exclusive scan of sums[0 .. count-1] in place, 256 at a time, carrying
  // the total of the earlier rounds.
}

// Grid: ChunkGrid::chunks blocks of 256 threads, after scan_chunk_sums.
__global__ void scan_chunks(const int* __restrict__ x, const int* __restrict__ chunk_prefix,
                            int* __restrict__ out, long long n, long long chunk) {
  // TODO(device_scan): tile by tile through the chunk: each thread scans its 8 elements, the block
  // scans the threads' totals, and every element gets chunk_prefix[blockIdx.x] + the totals of
  // the chunk's earlier tiles + the threads before it in this tile.
}

// Grid: ceil(n / 2048) blocks of 256 threads, status zeroed by the launcher.
__global__ void look_back_scan(const int* __restrict__ x, int* __restrict__ out, long long n,
                               TileStatus status) {
  // TODO(look_back): take a tile with atomicAdd(status.next_tile, 1) (shared, barrier), scan it,
  // publish its aggregate (tile 0: its prefix) and only then its flag with a release store; look
  // back over the tiles before it, loading each flag with an acquire load, adding aggregates until
  // a tile with a prefix; publish this tile's prefix, then write its elements. Release stores and
  // acquire loads: store_release and load_acquire from scan.cuh (README §3).
}

// Grid: ChunkGrid::chunks blocks of 256 threads.
__global__ void count_chunks(const int* __restrict__ x, int* __restrict__ chunk_counts, long long n,
                             long long chunk) {
  // TODO(compact): how many elements of the chunk satisfy keep(), into chunk_counts[blockIdx.x].
}

// Grid: ChunkGrid::chunks blocks of 256 threads, after scan_chunk_sums on the counts.
__global__ void compact_chunks(const int* __restrict__ x, const int* __restrict__ chunk_offset,
                               int* __restrict__ out, long long* __restrict__ count, long long n,
                               long long chunk) {
  // TODO(compact): tile by tile, each thread counts its kept elements, the block scans the counts,
  // and each kept element goes to out[chunk_offset[blockIdx.x] + kept in earlier tiles + kept by
  // earlier threads + its rank in the thread]. The last block writes *count.
}

}  // namespace scan
