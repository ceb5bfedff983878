/// @file reduction.cuh
/// @brief Lesson 10_reduction: reductions beyond lesson 05's plain float sum. The kernels a
/// student writes and the launchers the course owns.
///
/// - steps `narrow_rows` and `wide_rows`: the sum of every row of a rows x cols row-major float
///   matrix (a segmented reduction), through one launcher, launch_row_sums, that picks the
///   geometry by the row's length. Rows of at most NARROW_MAX_COLS floats: a team of
///   row_team_lanes(cols) consecutive lanes per row (1, 2, 4, ..., 32: a whole warp from 17
///   columns up), kernel row_sums_narrow. Longer rows: blocks of BLOCK_THREADS threads,
///   row_parts(rows, cols) blocks per row (several when the rows are too few to fill the GPU in
///   one wave of blocks), each reading its part with float4 loads, four in flight per thread, and
///   adding the part's sum into out[row] with atomicAdd, kernel row_sums_wide. Each step is timed
///   on a shape of its own regime against the read rung (row_sums_rung).
/// - step `arg_max`: the index of the largest element, the lowest index among equal maxima, on
///   data with negatives, repeated maxima and -infinity; (value, index) packed in one 64-bit key
///   (arg_max_key) so that one atomicMax per block orders both. Timed against
///   cub::DeviceReduce::ArgMax.
/// - step `deterministic_sum`: the sum of an array, the same bits on every run and for every grid
///   size, in one kernel (deterministic_sum): pass 1 sums fixed tiles of SUM_TILE elements, one
///   tile at a time per block, with float4 loads, into partials[tile]; the last block to finish
///   (a ticket from atomicAdd after __threadfence()) does pass 2, the partials in a fixed order.
///   No float atomics: their order changes from run to run, and so do the bits of the sum. Timed
///   against cub::DeviceReduce::Sum.
///
/// Every launch is course-owned (lessons/10_reduction/launch.cu): the student writes kernel
/// bodies (and any __device__ helpers) only. Pointers are device pointers; inputs and outputs
/// never overlap. Launchers are asynchronous on `stream` and return cudaSuccess,
/// cudaErrorInvalidValue when an argument is outside the documented range (nothing is launched
/// then), or the error of a launch or a device query.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

/// Lesson 10_reduction: kernels (student) and launchers (course).
namespace reduction {

/// Threads per block of every launch of this lesson (pass 2 of the deterministic sum is done by
/// the last block of the same launch).
constexpr int BLOCK_THREADS = 256;
/// Threads per warp (the device's `warpSize`).
constexpr int WARP_SIZE = 32;
/// Longest row (in floats) that launch_row_sums gives to row_sums_narrow; longer rows go to
/// row_sums_wide.
constexpr int NARROW_MAX_COLS = 1024;
/// Blocks per SM that row_sums_wide's grid aims at: row_parts() splits each row into as many
/// parts as fit rows x parts <= WIDE_BLOCKS_PER_SM x SMs (one wave of blocks: 8 blocks of 256
/// threads fill an SM of 2,048 threads), but no more than ceil(cols / MIN_PART_COLS) parts.
constexpr int WIDE_BLOCKS_PER_SM = 8;
/// Floats of a row for each part that row_parts() may make: a row gets at most
/// ceil(cols / MIN_PART_COLS) parts (8 floats per thread of a block).
constexpr int MIN_PART_COLS = 8 * BLOCK_THREADS;
/// Blocks per SM of the grids of arg_max and of the deterministic sum (by default).
constexpr int BLOCKS_PER_SM = 8;
/// float4 loads per thread in one tile of the deterministic sum.
constexpr int SUM_QUADS_PER_THREAD = 16;
/// Elements of one tile of the deterministic sum: SUM_QUADS_PER_THREAD float4 for each thread of
/// a block of BLOCK_THREADS, 16,384 floats (64 KiB). One block sums one tile at a time.
constexpr int SUM_TILE = 16384;
static_assert(SUM_TILE == 4 * SUM_QUADS_PER_THREAD * BLOCK_THREADS, "a tile is 16 float4 a thread");

// ---- Geometry helpers (host and device) ----

/// Lanes that share one row in row_sums_narrow: the smallest power of two >= cols, at most 32.
/// @param cols floats per row, 1 .. NARROW_MAX_COLS
__host__ __device__ constexpr int row_team_lanes(long long cols) {
  int lanes = 1;
  while (lanes < WARP_SIZE && lanes < cols) lanes *= 2;
  return lanes;
}

/// First column of part `part` of a row of `cols` floats split into `parts` parts for
/// row_sums_wide: part p covers columns [row_part_begin(cols, parts, p), row_part_begin(cols,
/// parts, p + 1)). Parts are ceil(cols / parts) columns rounded up to a multiple of 32 (so that
/// every part but the last starts on a 128-byte boundary of a row that does), the last ones
/// shorter or empty.
__host__ __device__ constexpr long long row_part_begin(long long cols, int parts, int part) {
  const long long per = ((cols + parts - 1) / parts + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE;
  const long long begin = per * part;
  return begin < cols ? begin : cols;
}

/// Tiles of the deterministic sum over n elements: ceil(n / SUM_TILE) (the last one partial).
__host__ __device__ constexpr long long sum_tiles(long long n) {
  return n < 1 ? 0 : (n + SUM_TILE - 1) / SUM_TILE;
}

/// The 64-bit key of element `index` holding `value`, for arg_max: a larger value gives a larger
/// key, and for equal values the lower index gives the larger key. High 32 bits: the float's
/// bits mapped to an unsigned order (sign bit set: all bits flipped; clear: sign bit set), so
/// -infinity < -1 < -0 < +0 < 1 < +infinity compare as unsigned integers (-0 and +0 get
/// different keys, where CUB's ArgMax and the host reference treat them as equal; the tests' data
/// hold no zeros, so this never decides a test). Low 32 bits: 0xFFFFFFFF - index. No
/// real element's key is 0 (-infinity's high half is 0x007FFFFF), so 0 is the identity of
/// atomicMax. NaN is not supported.
/// @param value  the element, not NaN
/// @param index  its index, 0 .. 2^32 - 1
__host__ __device__ inline unsigned long long arg_max_key(float value, long long index) {
  unsigned bits = 0;
#ifdef __CUDA_ARCH__
  bits = __float_as_uint(value);
#else
  __builtin_memcpy(&bits, &value, sizeof bits);
#endif
  const unsigned ordered = (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
  return (static_cast<unsigned long long>(ordered) << 32) |
         (0xFFFFFFFFull - static_cast<unsigned long long>(index));
}

/// The index a key of arg_max_key() holds.
__host__ __device__ constexpr long long key_index(unsigned long long key) {
  return static_cast<long long>(0xFFFFFFFFull - (key & 0xFFFFFFFFull));
}

// ---- The kernels the student writes (exercises/10_reduction/reduction.cu) ----

/// Step `narrow_rows`: out[r] = x[r * cols] + ... + x[r * cols + cols - 1] for every r < rows,
/// for rows of 1 .. NARROW_MAX_COLS floats.
///
/// Launch: ceil(rows / (BLOCK_THREADS / lanes)) blocks of BLOCK_THREADS threads, lanes =
/// row_team_lanes(cols): each group of `lanes` consecutive threads (a team; a whole warp when
/// lanes = 32) owns one row, team t of block b row b * (BLOCK_THREADS / lanes) + t. The team's
/// lanes read the row together (lane l: columns l, l + lanes, ...: coalesced) and combine their
/// sums with __shfl_down_sync of width `lanes`; its first lane writes out[row]. Teams past the
/// last row write nothing but still take part in their warp's shuffles.
/// @param x     rows x cols floats, row-major (row r at x + r * cols), read only
/// @param out   rows floats, written
/// @param rows  >= 1
/// @param cols  1 .. NARROW_MAX_COLS
/// @param lanes row_team_lanes(cols): 1, 2, 4, 8, 16 or 32
__global__ void row_sums_narrow(const float* __restrict__ x, float* __restrict__ out,
                                long long rows, int cols, int lanes);

/// Step `wide_rows`: adds the sum of part blockIdx.x % parts of row blockIdx.x / parts to
/// out[row] with one atomicAdd per block, for rows longer than NARROW_MAX_COLS floats.
///
/// Launch: rows x parts blocks of BLOCK_THREADS threads, parts = row_parts(rows, cols), after
/// launch_row_sums has set out to 0. Block b sums columns [row_part_begin(cols, parts, p),
/// row_part_begin(cols, parts, p + 1)) of row b / parts, p = b % parts. A part starts on a
/// 16-byte boundary only when its row does (row r starts r * cols floats into x, and cols may be
/// odd): its first 0-3 floats, up to the first boundary found from the address, are added one
/// per thread (the head); the
/// rest as float4 loads in a loop stepping by blockDim.x float4s, four loads in flight per thread;
/// the last 0-3 floats one per thread (the tail). Then the warps' shuffles, the 8 warp sums
/// through shared memory, and one atomicAdd(&out[row], block_sum). With one part per row that
/// atomicAdd is the row's only write.
/// @param x     rows x cols floats, row-major, read only
/// @param out   rows floats, 0 on entry; the row sums on exit
/// @param rows  >= 1
/// @param cols  > NARROW_MAX_COLS
/// @param parts blocks per row, row_parts(rows, cols)
__global__ void row_sums_wide(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long cols, int parts);

/// Step `arg_max`: *key = the largest arg_max_key(x[i], i) over every i < n, with one
/// atomicMax per block: the key of the maximum element of lowest index.
///
/// Launch: min(BLOCKS_PER_SM x SMs, ceil(n / BLOCK_THREADS)) blocks of BLOCK_THREADS threads,
/// after launch_arg_max has set *key to 0 (no element's key). A grid-stride loop keeps each
/// thread's best element (value and index, the lower index on ties); the warp, then the block,
/// combine theirs; one thread per block does atomicMax(key, arg_max_key(value, index)).
/// @param x   n floats, no NaN, read only
/// @param n   1 .. 2^32
/// @param key one 64-bit key, 0 on entry; decode with key_index()
__global__ void arg_max(const float* __restrict__ x, long long n, unsigned long long* key);

/// Step `deterministic_sum`: *out = the sum of x[0 .. n - 1], with the same bits for every grid
/// and on every run: every addition's place depends on n alone, never on the grid or on timing.
///
/// Launch: any number of blocks of BLOCK_THREADS threads (launch_deterministic_sum's `blocks`).
/// - Pass 1: block b sums tiles b, b + gridDim.x, ... one at a time (tile t: elements
///   t * SUM_TILE .. min(n, (t + 1) * SUM_TILE) - 1, sum_tiles(n) tiles) and its thread 0 writes
///   partials[t]. In a whole tile thread j adds float4 number j, j + BLOCK_THREADS, ... of the
///   tile (SUM_QUADS_PER_THREAD of them, each as (x + y) + (z + w)) in that order; in the last,
///   partial tile it adds elements j, j + BLOCK_THREADS, ...; then the block's tree (shuffles,
///   shared memory, shuffles). A __syncthreads() between tiles frees the shared memory.
/// - The ticket: thread 0 of each block, after its last partial, calls __threadfence() (its
///   partials visible to every block before the ticket) and then atomicAdd(blocks_done, 1); the
///   block that gets gridDim.x - 1 is the last one, and every other block's partials are written.
/// - Pass 2, by the last block only: thread j adds partials j, j + BLOCK_THREADS, ... (read with
///   __ldcg, from L2: another SM wrote them), the block's tree, thread 0 writes *out and sets
///   *blocks_done back to 0 for the next launch.
/// No float atomics.
/// @param x           n floats, 16-byte aligned (cudaMalloc's pointers are), read only
/// @param n           >= 1
/// @param partials    sum_tiles(n) floats, written by pass 1 and read by pass 2
/// @param blocks_done one counter, 0 on entry, 0 again on exit (the last block resets it)
/// @param out         one float, written
__global__ void deterministic_sum(const float* __restrict__ x, long long n, float* partials,
                                  unsigned int* blocks_done, float* __restrict__ out);

// ---- Launchers and helpers the course owns (lessons/10_reduction/launch.cu) ----

/// Blocks per row that row_sums_wide gets for a rows x cols matrix on the current device:
/// floor(WIDE_BLOCKS_PER_SM x SMs / rows), so that the whole grid runs in one wave of blocks (a
/// few blocks more than a wave would run as a second wave on an almost idle GPU), but at least 1
/// and no more than ceil(cols / MIN_PART_COLS).
/// @param rows       rows of the matrix, >= 1
/// @param cols       columns (floats per row), >= 1
/// @param[out] parts the number of parts
/// @return cudaErrorInvalidValue when rows < 1 or cols < 1; the SM-count query's error
cudaError_t row_parts(long long rows, long long cols, int* parts);

/// Row sums: out[r] = sum of row r, for any rows x cols with rows * cols < 2^40. Rows of up to
/// NARROW_MAX_COLS floats: row_sums_narrow on ceil(rows * lanes / BLOCK_THREADS) blocks; longer
/// rows: sets out to 0, then row_sums_wide on rows x row_parts(rows, cols) blocks.
/// @param x, out, rows, cols as the kernels
/// @param stream stream of the launches
cudaError_t launch_row_sums(const float* x, float* out, long long rows, long long cols,
                            cudaStream_t stream = 0);

/// Ceiling of the row-sum steps (kernel `row_sums_rung`), the read rung: the bytes of the task
/// moved as fast as the course knows how, whatever the rows: the matrix read once as one flat
/// array with 16-byte loads in a grid-stride loop (BLOCKS_PER_SM blocks per SM), and every
/// out[r] written once. Its out is not the row sums (each thread writes its own running sum into
/// its rows): for timing only. Arguments as launch_row_sums.
cudaError_t launch_row_sums_rung(const float* x, float* out, long long rows, long long cols,
                                 cudaStream_t stream = 0);

/// Context for the lab's table: cub::DeviceSegmentedReduce::Sum over the same rows (segment r =
/// [r * cols, (r + 1) * cols), offsets computed on the fly), temporary storage kept between
/// calls. CUB gives one block to each segment.
cudaError_t launch_cub_row_sums(const float* x, float* out, long long rows, long long cols,
                                cudaStream_t stream = 0);

/// The grid of arg_max (and the default grid of deterministic_sum) for n elements: BLOCKS_PER_SM x
/// SMs, no more than ceil(n / BLOCK_THREADS) blocks.
/// @return cudaErrorInvalidValue when n < 1; the SM-count query's error
cudaError_t default_blocks(long long n, int* blocks);

/// Sets *key to 0 and launches arg_max on default_blocks(n) blocks.
/// @param x, n, key as arg_max; 1 <= n <= 2^32
/// @param stream stream of the launch
cudaError_t launch_arg_max(const float* x, long long n, unsigned long long* key,
                           cudaStream_t stream = 0);

/// Ceiling of step arg_max: cub::DeviceReduce::ArgMax(x, value, index, n) into course-owned
/// device scalars (the CUDA 13 overload with separate value and 64-bit index outputs; `key` is
/// not written). Temporary storage allocated on the first call and kept.
cudaError_t launch_cub_arg_max(const float* x, long long n, unsigned long long* key,
                               cudaStream_t stream = 0);

/// The deterministic sum: deterministic_sum on `blocks` blocks of BLOCK_THREADS threads, with a
/// course-owned counter of finished blocks (allocated and set to 0 on the first call; each
/// launch's last block sets it back to 0). One launch. The result must not depend on `blocks`.
/// @param x, n, partials, out as the kernel; 1 <= n < 2^40; x 16-byte aligned
/// @param blocks grid, >= 1 (the tests try several; default_blocks(n) when timed)
/// @param stream stream of the launch
/// @return cudaErrorInvalidValue for n, blocks or an x outside that range
cudaError_t launch_deterministic_sum(const float* x, long long n, float* partials, float* out,
                                     int blocks, cudaStream_t stream = 0);

/// Ceiling of step deterministic_sum: cub::DeviceReduce::Sum(x, out, n) (run-to-run
/// deterministic on one GPU, CUB documents); `partials` is not used. Temporary storage kept.
cudaError_t launch_cub_sum(const float* x, long long n, float* partials, float* out, int blocks,
                           cudaStream_t stream = 0);

}  // namespace reduction
