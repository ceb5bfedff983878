/// @file occupancy.cuh
/// @brief Lesson 15_occupancy_profiling: the kernel and the host code a student writes, the
/// kernel and the launchers the course owns.
///
/// Three steps:
///
/// - step `registers`: mix_channels, out = M v for every pixel v of 8 float channels (a colour or
///   feature transform: one 8 x 8 matrix M for the whole image). The obvious kernel (one thread
///   per pixel, M held in 64 registers for the whole loop) uses 96 registers per thread on sm_90
///   and fits 2 blocks of 256 threads per SM: 25% occupancy. The student's kernel must fit in at
///   most kMaxRegisters registers per thread without spilling (local memory 0 bytes, read from
///   cudaFuncGetAttributes), and is timed against a copy of the same bytes.
/// - step `block_size`: choose_block_size, host code: the block size of the course's
///   segment_scan, whose dynamic shared memory grows with the block (segment_smem_bytes()), from
///   the occupancy API (cudaOccupancyMaxPotentialBlockSizeVariableSMem) or by hand. Graded by the
///   theoretical occupancy that block size gets on this GPU and by speed.
/// - step `profile`: Nsight Compute reads the counters of both kernels, launched as the steps
///   above launch them, and the grader asserts what the lesson teaches: registers, achieved
///   occupancy, sectors per request, shared-memory bank conflicts. Skipped, with the reason, where
///   this machine does not let a user read the GPU's counters (ERR_NVGPUCTRPERM).
///
/// Units: element counts are `long long`; shared memory in bytes; pointers are device pointers
/// from cudaMalloc (so 16-byte aligned: kernels may load float4 and int4); inputs and outputs never
/// overlap.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

/// Lesson 15_occupancy_profiling: kernels and host code (student), launchers (course).
namespace occupancy_profiling {

/// Channels per pixel of step `registers`: M is CHANNELS x CHANNELS.
constexpr int CHANNELS = 8;
/// Threads per block of every launch of mix_channels.
constexpr int MIX_BLOCK_THREADS = 256;
/// Registers per thread a mix_channels of step `registers` may use at most: 64 lets 4 blocks of
/// 256 threads share an SM's 65,536 registers (50% of an H200's 2,048 threads, 100% of a T4's
/// 1,024), where the obvious kernel's 96 fit 2.
constexpr int kMaxRegisters = 64;

/// Consecutive ints each thread of segment_scan owns: one segment.
constexpr int SEGMENT = 32;

// ---- Step `registers`: the kernel the student writes (exercises/15_occupancy_profiling) ----

/// Step `registers`: out[8p + r] = m[8r + 0] * in[8p + 0] + ... + m[8r + 7] * in[8p + 7] for
/// every pixel p < n and channel r < 8 (out = M in[p], M row-major).
///
/// Launch (launch_mix_channels): blocks of MIX_BLOCK_THREADS threads, a grid of a few waves
/// (4 x 8 blocks per SM), fewer than the work: walk it with a grid-stride loop. How a thread's
/// work is cut (a pixel per thread, a channel per thread, ...) is the kernel's choice. The hidden
/// tests' data are small nonzero integers, so every order of
/// the eight products and sums gives the same bits: outputs are compared exactly.
/// @param in  8 n floats, device memory, read only: pixel p's channels at in[8p .. 8p + 7]
/// @param out 8 n floats, device memory, written
/// @param m   64 floats, device memory, read only: M[r][k] at m[8r + k]
/// @param n   number of pixels, >= 1
__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n);

// ---- Step `block_size`: the host code the student writes ----

/// Step `block_size`: the block size launch_segment_scan launches segment_scan with, chosen for
/// this GPU: one that lets the SM hold as many threads as segment_scan's shared memory allows
/// (cudaOccupancyMaxPotentialBlockSizeVariableSMem with segment_smem_bytes(), or reasoned by
/// hand from the device's limits). Called by launch_segment_scan before every launch, after
/// prepare_segment_scan(), on the current device.
/// @param block_threads receives the block size: a multiple of 32, 32 .. 1024
/// @return cudaSuccess, or the error of a CUDA call it made
cudaError_t choose_block_size(int* block_threads);

// ---- Owned by the course (lessons/15_occupancy_profiling/launch.cu) ----

/// Dynamic shared memory segment_scan needs per block of `block_threads` threads: one segment of
/// SEGMENT ints per thread, padded to SEGMENT + 1 ints so that thread t's segment starts in bank
/// t % 32 (132 bytes per thread).
__host__ __device__ constexpr std::size_t segment_smem_bytes(int block_threads) {
  return static_cast<std::size_t>(block_threads) * (SEGMENT + 1) * sizeof(int);
}

/// The course's kernel of step `block_size`: out[i] = x[s] + ... + x[i] within each segment of
/// SEGMENT consecutive ints (s = i - i % SEGMENT), the segments staged through dynamic shared
/// memory (coalesced loads, each thread scans its own segment, coalesced stores). Works with any
/// block size that is a multiple of 32, with segment_smem_bytes(blockDim.x) bytes of dynamic
/// shared memory: block b covers elements [b * blockDim.x * SEGMENT, (b + 1) * blockDim.x *
/// SEGMENT).
/// @param x   n ints, device memory, read only
/// @param out n ints, device memory, written
/// @param n   number of elements, >= 1
__global__ void segment_scan(const int* __restrict__ x, int* __restrict__ out, long long n);

/// Lets segment_scan use as much dynamic shared memory per block as this device allows
/// (cudaFuncAttributeMaxDynamicSharedMemorySize), so that every block size up to 1024 can launch;
/// the occupancy API then sees those sizes as possible. Called by launch_segment_scan.
cudaError_t prepare_segment_scan();

/// Runs mix_channels on n pixels on `stream` (see mix_channels for the grid).
/// @return cudaErrorInvalidValue for n < 1 or n > 2^40, else the launch's error
cudaError_t launch_mix_channels(const float* in, float* out, const float* m, long long n,
                                cudaStream_t stream);
/// The ceiling of step `registers`: a float4 copy of the same 32 n bytes (in to out), with
/// mix_channels' block and grid.
cudaError_t launch_mix_copy_rung(const float* in, float* out, const float* m, long long n,
                                 cudaStream_t stream);

/// Runs segment_scan on n ints on `stream` with the block size choose_block_size() gives and
/// segment_smem_bytes() of it; remembers that block size (last_segment_block()).
/// @return cudaErrorInvalidConfiguration when the block size is not a multiple of 32 in 32 ..
///         1024; cudaErrorInvalidValue for n < 1 or n > 2^40; else the error of
///         choose_block_size or of the launch
cudaError_t launch_segment_scan(const int* x, int* out, long long n, cudaStream_t stream);
/// The block size of the last launch_segment_scan (0 before the first).
int last_segment_block();
/// The ceiling of step `block_size`: an int4 copy of the same 4 n bytes (x to out).
cudaError_t launch_segment_copy_rung(const int* x, int* out, long long n, cudaStream_t stream);

/// Theoretical occupancy of segment_scan with `block_threads` threads per block and
/// segment_smem_bytes() of them on the current device: resident warps per SM / the SM's maximum,
/// 0 .. 1, from cudaOccupancyMaxActiveBlocksPerMultiprocessor; 0 for a block size whose shared
/// memory exceeds what one block may have on this device (it cannot launch).
cudaError_t segment_occupancy(int block_threads, double* occupancy);

}  // namespace occupancy_profiling
