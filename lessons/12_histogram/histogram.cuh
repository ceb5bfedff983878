/// @file histogram.cuh
/// @brief Lesson 12_histogram: the kernels a student writes and the launchers the course owns.
///
/// The histogram of n bytes data[0 .. n-1]: bins[b] = how many of the bytes equal b, for the 256
/// values b = 0 .. 255 (BINS). Every step computes the same 256 counts, each compared exactly:
///
/// - step `global_atomics`: histogram_global, one atomicAdd per byte on the bins in global
///   memory. Correct and slow; timed and reported against CUB, not gated.
/// - steps `privatized`, `skew_10`, `skew_40`, `skew_90`: histogram_shared, the bytes counted in
///   shared memory (one set of 256 counters per warp, or per block) and merged into the global
///   bins with one atomicAdd per bin per block. Timed on uniform bytes (privatized) and on bytes
///   of which 10%, 40% and 90% equal one value (the skew_ steps: contention on one bin).
/// - step `beyond_cub` (optional, the stretch): histogram_vector, the same with 16-byte loads
///   (uint4), timed on uniform bytes.
///
/// Every timed step is measured against cub::DeviceHistogram::HistogramEven on the same bytes, in
/// the same process (launch_cub_histogram). Every launch is course-owned
/// (lessons/12_histogram/launch.cu): the student writes kernel bodies and __device__ helpers.
///
/// Units and layout: n counts bytes (1 <= n < 2^40); `data` is a device pointer from cudaMalloc,
/// so 16-byte aligned (the kernels may read it as unsigned or uint4, minding the 0-15 bytes after
/// the last whole word or vector); `bins` is BINS unsigned ints in device memory, set to 0 by the
/// launcher before the kernel starts (so the kernels only add to them). Counts are exact integers;
/// n < 2^32 keeps every count inside an unsigned (the course's inputs are at most 2^28 bytes).
#pragma once

#include <cuda_runtime.h>

/// Lesson 12_histogram: kernels (student) and launchers (course).
namespace histogram {

/// Bins of every histogram of this lesson: one per byte value.
constexpr int BINS = 256;
/// Threads per block of every launch of this lesson: 8 warps, one thread per bin in the merge.
constexpr int BLOCK_THREADS = 256;
/// Threads per warp on every NVIDIA GPU so far (the device's `warpSize`).
constexpr int WARP_SIZE = 32;
/// Warps per block.
constexpr int WARPS_PER_BLOCK = BLOCK_THREADS / WARP_SIZE;

// ---- The kernels the student writes (exercises/12_histogram/histogram.cu) ----

/// Step `global_atomics`: bins[data[i]] += 1 for every i < n, with one atomicAdd per byte on the
/// bins in global memory.
///
/// Launch: histogram_grid(n) blocks of BLOCK_THREADS threads, usually far fewer threads than
/// bytes: a grid-stride loop covers them all.
/// @param data n bytes, device memory, read only
/// @param n    number of bytes, >= 1
/// @param bins BINS counters, device memory, 0 on entry; the kernel adds every byte's 1
__global__ void histogram_global(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins);

/// Steps `privatized`, `skew_10`, `skew_40` and `skew_90`: the same counts, accumulated per block
/// in shared memory (cleared first), then added to `bins` with one atomicAdd per nonzero bin per
/// block.
///
/// Launch: histogram_grid(n) blocks of BLOCK_THREADS threads, grid-stride loop; shared memory
/// is the kernel's own (static __shared__ arrays, up to 48 KiB per block).
/// @param data n bytes, device memory (16-byte aligned), read only
/// @param n    number of bytes, >= 1
/// @param bins BINS counters, device memory, 0 on entry
__global__ void histogram_shared(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins);

/// Step `beyond_cub`: as histogram_shared, reading the bytes 16 at a time (uint4) and counting
/// the 0-15 bytes after the last whole vector one by one.
///
/// Launch: histogram_grid(n) blocks of BLOCK_THREADS threads, grid-stride loop.
/// @param data n bytes, device memory (16-byte aligned), read only
/// @param n    number of bytes, >= 1
/// @param bins BINS counters, device memory, 0 on entry
__global__ void histogram_vector(const unsigned char* __restrict__ data, long long n,
                                 unsigned* __restrict__ bins);

/// The signature of every launcher of this lesson (and of its ceiling): bytes, bins, n, stream.
using Launcher = cudaError_t (*)(const unsigned char* data, unsigned* bins, long long n,
                                 cudaStream_t stream);

// ---- Launchers and the ceiling the course owns (lessons/12_histogram/launch.cu) ----
// Launchers are asynchronous on `stream` and return cudaSuccess, cudaErrorInvalidValue when an
// argument is outside the documented range (nothing is launched then), or the first error of a
// query, an allocation, the memset or the launch. Each first sets the BINS counters to 0 with
// cudaMemsetAsync on `stream` (1 KiB: timed with the kernel, as CUB's histogram zeroes its own).

/// The grid of every kernel of this lesson for n bytes: one full wave (SM count x the blocks of
/// BLOCK_THREADS threads per SM that fit for the least of the three kernels, from
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor), but no more blocks than
/// ceil(n / (BLOCK_THREADS x 16)), so that a small input does not pay a wave of merges.
/// @return cudaErrorInvalidValue when n < 1 or n >= 2^40 or blocks is null; the error of a query
cudaError_t histogram_grid(long long n, unsigned* blocks);

/// Step `global_atomics`: zeroes `bins`, launches histogram_global on histogram_grid(n).
/// @param data   n bytes, device memory
/// @param bins   BINS unsigned, device memory
/// @param n      number of bytes, >= 1
/// @param stream the stream of the memset and the launch
cudaError_t launch_histogram_global(const unsigned char* data, unsigned* bins, long long n,
                                    cudaStream_t stream = 0);

/// Steps `privatized` and `skew_*`: zeroes `bins`, launches histogram_shared on histogram_grid(n).
cudaError_t launch_histogram_shared(const unsigned char* data, unsigned* bins, long long n,
                                    cudaStream_t stream = 0);

/// Step `beyond_cub`: zeroes `bins`, launches histogram_vector on histogram_grid(n).
cudaError_t launch_histogram_vector(const unsigned char* data, unsigned* bins, long long n,
                                    cudaStream_t stream = 0);

/// The ceiling of every timed step: cub::DeviceHistogram::HistogramEven(data, bins, 257 levels,
/// lower 0, upper 256, n), which zeroes and fills `bins` itself; its temporary storage is
/// allocated on the first call (and again only when a later n needs more), never inside a timed
/// launch (the grader runs every launch once, untimed, before it times it).
cudaError_t launch_cub_histogram(const unsigned char* data, unsigned* bins, long long n,
                                 cudaStream_t stream = 0);

}  // namespace histogram
