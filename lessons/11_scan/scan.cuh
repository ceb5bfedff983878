/// @file scan.cuh
/// @brief Lesson 11_scan: the kernels a student writes and the launchers the course owns.
///
/// A scan (prefix sum) of x[0 .. n-1] is inclusive[i] = x[0] + ... + x[i], or exclusive[i] =
/// x[0] + ... + x[i - 1] (0 for i = 0). Four steps, every one on 32-bit integers (exact: any order
/// of the additions gives the same bits):
///
/// - step `block_scan`: each block of BLOCK_THREADS threads scans its own tile of BLOCK_THREADS
///   elements, inclusive and exclusive, with __shfl_up_sync inside each warp and the warps' totals
///   through shared memory. Correctness first; timed and reported against a copy of the same
///   geometry (block_copy_rung), not gated.
/// - step `device_scan`: the inclusive scan of the whole array by reduce-then-scan, in three
///   kernels: reduce_chunks (the sum of each block's chunk), scan_chunk_sums (their exclusive
///   scan, one block), scan_chunks (each chunk scanned tile by tile from its prefix). Timed
///   against cub::DeviceScan::InclusiveSum on the same input, in the same process.
/// - step `look_back` (optional, the stretch): the same scan in one pass over the data, a tile
///   per block in the order of an atomic ticket, each tile's prefix found by a decoupled look-back
///   over its predecessors' published aggregates and prefixes (release stores, acquire loads).
///   Timed against the same CUB call.
/// - step `compact`: stream compaction, out = the elements x[i] with keep(x[i]), in their order,
///   and their count, through a scan of the kept counts (the chunk structure of device_scan).
///   Timed against cub::DeviceSelect::If with the same predicate.
///
/// Every launch is course-owned (lessons/11_scan/launch.cu): the student writes kernel bodies and
/// any __device__ helpers only.
///
/// Units: element counts are `long long`, except in block_scan and in scan_chunk_sums (a count of
/// chunks: `int`); pointers are device pointers from cudaMalloc (so 16-byte aligned: the chunk and
/// tile kernels may load int4); inputs and outputs never overlap. Sums wrap around modulo 2^32
/// like the hardware's int additions; the hidden tests' data (values in [-100, 100], signs
/// drawn at random) keep every partial sum far from that in practice, though 100 x 2^26 would
/// not fit.
#pragma once

#include <cuda_runtime.h>

/// Lesson 11_scan: kernels (student) and launchers (course).
namespace scan {

/// Threads per block of every launch of this lesson: 8 warps.
constexpr int BLOCK_THREADS = 256;
/// Threads per warp on every NVIDIA GPU so far (the device's `warpSize`).
constexpr int WARP_SIZE = 32;
/// Warps per block.
constexpr int WARPS_PER_BLOCK = BLOCK_THREADS / WARP_SIZE;
/// Consecutive elements each thread owns in a tile of the device-wide steps (two int4 loads).
constexpr int ITEMS_PER_THREAD = 8;
/// Elements of a tile of the device-wide steps: BLOCK_THREADS x ITEMS_PER_THREAD = 2048. Thread t
/// of a tile starting at element `base` owns elements base + 8t .. base + 8t + 7.
constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;

/// The predicate of step `compact`: keep the positive elements.
__host__ __device__ inline bool keep(int v) {
  return v > 0;
}

/// What a tile of step `look_back` has published in TileStatus::flag.
enum TileFlag : int {
  TILE_EMPTY = 0,      ///< nothing yet (the launcher zeroes every flag before the launch)
  TILE_AGGREGATE = 1,  ///< aggregate[t] holds the sum of tile t's own elements
  TILE_PREFIX = 2      ///< prefix[t] holds the inclusive prefix: the sum of tiles 0 .. t
};

/// The scratch of step `look_back`, owned by the launcher: arrays of one int per tile, every
/// flag TILE_EMPTY and *next_tile 0 when the kernel starts. A tile publishes its aggregate or
/// prefix first and its flag after it, with a release store; a reader loads the flag with an
/// acquire load before it reads the value the flag announces.
struct TileStatus {
  int* flag;            ///< tiles TileFlag values, device memory, 0 on entry
  int* aggregate;       ///< tiles ints: tile t's own sum, valid once flag[t] >= TILE_AGGREGATE
  int* prefix;          ///< tiles ints: sum of tiles 0 .. t, valid once flag[t] == TILE_PREFIX
  unsigned* next_tile;  ///< one counter, 0 on entry: atomicAdd(next_tile, 1) hands out tiles
};

/// A release store of `v` to `*p` at device scope: every write this thread made before it is
/// visible to any thread of the device whose acquire load (load_acquire) reads `v` (PTX ISA,
/// "Memory Consistency Model": release and acquire patterns). It is the instruction
/// `cuda::atomic_ref<int, cuda::thread_scope_device>(*p).store(v, cuda::memory_order_release)`
/// compiles to, `st.release.gpu.b32` (nvcc 13.0 for sm_90, docs/measured/compiler.md), written
/// here in inline PTX because `<cuda/atomic>` costs seconds of compile time per rebuild.
/// @param p an int in global memory, 4-byte aligned
/// @param v the value to store
__device__ __forceinline__ void store_release(int* p, int v) {
  asm volatile("st.release.gpu.b32 [%0],%1;" ::"l"(p), "r"(v) : "memory");
}

/// An acquire load of `*p` at device scope: if it reads a value stored by store_release, every
/// write the storing thread made before that store is visible to this thread's later reads (PTX
/// ISA, "Memory Consistency Model"). `ld.acquire.gpu.b32`, the instruction of
/// `cuda::atomic_ref<int, cuda::thread_scope_device>(*p).load(cuda::memory_order_acquire)`
/// (nvcc 13.0 for sm_90, docs/measured/compiler.md).
/// @param p an int in global memory, 4-byte aligned
/// @return the value loaded
__device__ __forceinline__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.b32 %0,[%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

/// How the chunk kernels (device_scan, compact) split n elements: `tiles` tiles of TILE_ITEMS
/// (the last one partial), `chunks` blocks, block b owning elements [b * chunk, min((b + 1) *
/// chunk, n)), every chunk but the last `chunk` elements (a multiple of TILE_ITEMS).
struct ChunkGrid {
  long long tiles = 0;  ///< ceil(n / TILE_ITEMS)
  long long chunk = 0;  ///< elements per chunk, a multiple of TILE_ITEMS
  int chunks = 0;       ///< ceil(tiles / (chunk / TILE_ITEMS)): the grid of every chunk kernel
};

// ---- The kernels the student writes (exercises/11_scan/scan.cu) ----

/// Step `block_scan`: for each tile of BLOCK_THREADS consecutive elements (tile b = elements
/// 256b .. 256b + 255, the last one cut at n), the inclusive and the exclusive scan of that tile
/// alone: inclusive[i] = x[256b] + ... + x[i], exclusive[i] = inclusive[i] - x[i].
///
/// Launch: ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads; thread t of block b owns
/// element 256b + t. Threads past n hold 0 (the identity) and take part in every shuffle and
/// barrier; they write nothing.
/// @param x         n ints, device memory, read only
/// @param inclusive n ints, device memory, written
/// @param exclusive n ints, device memory, written
/// @param n         number of elements, >= 1
__global__ void block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                           int* __restrict__ exclusive, int n);

/// Step `device_scan`, kernel 1 of 3: chunk_sums[b] = the sum of block b's chunk, elements
/// [b * chunk, min((b + 1) * chunk, n)).
///
/// Launch: ChunkGrid::chunks blocks of BLOCK_THREADS threads.
/// @param x          n ints, device memory, read only
/// @param chunk_sums ChunkGrid::chunks ints, device memory (the launcher's scratch), written
/// @param n          number of elements, >= 1
/// @param chunk      ChunkGrid::chunk: elements per chunk, a multiple of TILE_ITEMS
__global__ void reduce_chunks(const int* __restrict__ x, int* __restrict__ chunk_sums, long long n,
                              long long chunk);

/// Steps `device_scan` and `compact`, kernel 2 of 3: the exclusive scan of sums[0 .. count-1],
/// in place: sums[b] becomes sums[0] + ... + sums[b - 1] (0 for b = 0).
///
/// Launch: one block of BLOCK_THREADS threads (count may exceed BLOCK_THREADS: loop, carrying the
/// total of the elements already scanned).
/// @param sums  count ints, device memory, read and written
/// @param count number of chunks, >= 1
__global__ void scan_chunk_sums(int* sums, int count);

/// Step `device_scan`, kernel 3 of 3: out[i] = x[0] + ... + x[i] for block b's chunk, tile by
/// tile: each tile scanned (ITEMS_PER_THREAD consecutive elements per thread, then the block),
/// offset by chunk_prefix[b] plus the totals of the chunk's earlier tiles.
///
/// Launch: ChunkGrid::chunks blocks of BLOCK_THREADS threads, after scan_chunk_sums.
/// @param x            n ints, device memory, read only
/// @param chunk_prefix ChunkGrid::chunks ints: the exclusive scan of the chunk sums
/// @param out          n ints, device memory, written
/// @param n            number of elements, >= 1
/// @param chunk        ChunkGrid::chunk
__global__ void scan_chunks(const int* __restrict__ x, const int* __restrict__ chunk_prefix,
                            int* __restrict__ out, long long n, long long chunk);

/// Step `look_back`: out[i] = x[0] + ... + x[i] in one pass. Each block takes the next tile of
/// TILE_ITEMS elements from atomicAdd(status.next_tile, 1) (not blockIdx.x: blocks are not
/// started in any promised order, and a block that waits for a tile no running block owns
/// waits forever), scans it, publishes its aggregate (tile 0: its prefix), looks back over the
/// tiles before it until one with a prefix, publishes its own prefix, and writes its elements.
///
/// Launch: ceil(n / TILE_ITEMS) blocks of BLOCK_THREADS threads, after the launcher has zeroed
/// status.flag and *status.next_tile.
/// @param x      n ints, device memory, read only
/// @param out    n ints, device memory, written
/// @param n      number of elements, >= 1
/// @param status the launcher's tile status arrays (see TileStatus)
__global__ void look_back_scan(const int* __restrict__ x, int* __restrict__ out, long long n,
                               TileStatus status);

/// Step `compact`, kernel 1 of 3: chunk_counts[b] = how many elements of block b's chunk satisfy
/// keep().
///
/// Launch: ChunkGrid::chunks blocks of BLOCK_THREADS threads; then scan_chunk_sums on the counts.
/// @param x            n ints, device memory, read only
/// @param chunk_counts ChunkGrid::chunks ints, device memory (the launcher's scratch), written
/// @param n            number of elements, 1 <= n < 2^31
/// @param chunk        ChunkGrid::chunk
__global__ void count_chunks(const int* __restrict__ x, int* __restrict__ chunk_counts, long long n,
                             long long chunk);

/// Step `compact`, kernel 3 of 3: writes the kept elements of block b's chunk, in order, to
/// out[chunk_offset[b]] onwards; the last block also writes the total count.
///
/// Launch: ChunkGrid::chunks blocks of BLOCK_THREADS threads, after scan_chunk_sums.
/// @param x            n ints, device memory, read only
/// @param chunk_offset ChunkGrid::chunks ints: the exclusive scan of the chunk counts
/// @param out          n ints of room, device memory; out[0 .. *count - 1] written, the rest
///                     untouched
/// @param count        one long long, device memory, written: the number of kept elements
/// @param n            number of elements, 1 <= n < 2^31
/// @param chunk        ChunkGrid::chunk
__global__ void compact_chunks(const int* __restrict__ x, const int* __restrict__ chunk_offset,
                               int* __restrict__ out, long long* __restrict__ count, long long n,
                               long long chunk);

// ---- Launchers and ceilings the course owns (lessons/11_scan/launch.cu) ----
// Launchers are asynchronous on `stream` and return cudaSuccess, cudaErrorInvalidValue when an
// argument is outside the documented range (nothing is launched then), or the first error of a
// query, an allocation or a launch. Scratch memory (chunk sums, tile status) is allocated on the
// first call that needs it (and again only when a later n needs more) and kept for the life of
// the process, so timed calls never allocate.

/// Launches block_scan on ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads.
/// @return cudaErrorInvalidValue when n < 1
cudaError_t launch_block_scan(const int* x, int* inclusive, int* exclusive, int n,
                              cudaStream_t stream = 0);

/// Ceiling of step `block_scan` (kernel `block_copy_rung`): the same grid, block, loads and
/// stores with no scan (inclusive[i] = exclusive[i] = x[i]). Timing only: its output is not a
/// scan. Arguments and errors as launch_block_scan.
cudaError_t launch_block_copy_rung(const int* x, int* inclusive, int* exclusive, int n,
                                   cudaStream_t stream = 0);

/// The chunk grid of n elements on the current device: SM count x the blocks per SM that fit
/// (cudaOccupancyMaxActiveBlocksPerMultiprocessor, the least over the four chunk kernels at
/// BLOCK_THREADS threads): one full wave of blocks, each with a chunk of whole tiles.
/// @return cudaErrorInvalidValue when n < 1 or g is null; the error of a query
cudaError_t chunk_grid(long long n, ChunkGrid* g);

/// Step `device_scan`: reduce_chunks, scan_chunk_sums, scan_chunks on `stream`, on chunk_grid(n).
/// @param x, out, n as scan_chunks; 1 <= n < 2^40
/// @param stream stream of the launches
cudaError_t launch_device_scan(const int* x, int* out, long long n, cudaStream_t stream = 0);

/// Step `look_back`: zeroes the tile flags and the ticket counter (cudaMemsetAsync), then
/// launches look_back_scan on ceil(n / TILE_ITEMS) blocks of BLOCK_THREADS threads.
/// @param x, out, n as look_back_scan; 1 <= n < 2^40
/// @param stream stream of the launches
cudaError_t launch_look_back_scan(const int* x, int* out, long long n, cudaStream_t stream = 0);

/// Step `compact`: count_chunks, scan_chunk_sums on the counts, compact_chunks, on chunk_grid(n).
/// @param x, out, count, n as compact_chunks; 1 <= n < 2^31
/// @param stream stream of the launches
cudaError_t launch_compact(const int* x, int* out, long long* count, long long n,
                           cudaStream_t stream = 0);

/// Ceiling of steps `device_scan` and `look_back`: cub::DeviceScan::InclusiveSum(x, out, n).
/// @param x, out, n as launch_device_scan
/// @param stream stream of the launches
cudaError_t launch_cub_inclusive_sum(const int* x, int* out, long long n, cudaStream_t stream = 0);

/// Ceiling of step `compact`: cub::DeviceSelect::If(x, out, count, n, keep), the kept elements
/// in order and their count.
/// @param x, out, count, n as launch_compact
/// @param stream stream of the launches
cudaError_t launch_cub_select(const int* x, int* out, long long* count, long long n,
                              cudaStream_t stream = 0);

}  // namespace scan
