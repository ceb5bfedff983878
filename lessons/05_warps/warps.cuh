/// @file warps.cuh
/// @brief Lesson 05_warps: the kernels a student writes and the launchers the course owns.
///
/// Three kernels about the warp, the 32 threads an SM schedules together:
///
/// - step `uniform_branch`: out[i] = odd_work(x[i]) for odd i, even_work(x[i]) for even i, two
///   different chains of CHAIN_LENGTH dependent floating-point instructions. Arithmetic, not
///   memory, decides the time. Thread i taking element i branches on the lane's parity, so every
///   warp runs both chains; the student keeps the output and changes which thread takes which
///   element so that all 32 lanes of a warp take the same branch. Timed against branch_rung, the
///   same arithmetic and geometry with every warp on one chain.
/// - step `warp_reduce`: the sum and the maximum of every group of 32 consecutive elements, with
///   __shfl_down_sync, right when the last group is partial (n % 32 != 0). Correctness only.
/// - step `array_sum`: the sum of the whole array: a grid-stride loop into a register, warp
///   shuffles, the warps' sums combined through shared memory, one atomicAdd per block. Timed
///   against cub::DeviceReduce::Sum on the same input, in the same process.
///
/// Every launch is course-owned (lessons/05_warps/launch.cu): the student writes kernel bodies
/// (and any __device__ helpers) only.
///
/// Units: element counts are `int` in the first two steps and `long long` in `array_sum`;
/// pointers are device pointers to `float`; inputs and outputs never overlap.
#pragma once

#include <cuda_runtime.h>

/// Lesson 05_warps: kernels (student) and launchers (course).
namespace warps {

/// Threads per block of every launch of this lesson: 8 warps.
constexpr int BLOCK_THREADS = 256;
/// Threads per warp on every NVIDIA GPU so far (the device's `warpSize`).
constexpr int WARP_SIZE = 32;
/// Dependent floating-point instructions in each of even_work and odd_work.
constexpr int CHAIN_LENGTH = 128;
/// Blocks per SM of the grid launch_array_sum uses (capped at one thread per element).
constexpr int SUM_BLOCKS_PER_SM = 8;

/// The work of an even element: CHAIN_LENGTH / 2 steps of a multiply, then an add, each rounded
/// on its own (never fused): v = (v * -0.9990234375) + 1. On the device __fmul_rn and __fadd_rn,
/// which the compiler may not contract into a fused multiply-add; on the host the same two
/// roundings written as fmaf(v, c, -0.0f) (= v * c rounded once, signed zeros included) and
/// fmaf(v, 1.0f, 1.0f) (= v + 1 rounded once). Bit-exact wherever it is computed. Bounded: the
/// chain pulls any |v| <= 1e30 towards 1 / 1.9990234375.
///
/// Why not a second chain of fused multiply-adds with other constants: the compiler merges two
/// branches whose instructions differ only in their constants into one chain with the constants
/// selected per thread, and the branch, with its divergence, disappears. Different instructions
/// (FMUL and FADD here, FFMA in odd_work) keep the two sides apart.
__host__ __device__ inline float even_work(float v) {
#ifdef __CUDA_ARCH__
#pragma unroll
  for (int k = 0; k < CHAIN_LENGTH / 2; ++k) v = __fadd_rn(__fmul_rn(v, -0.9990234375f), 1.0f);
#else
  for (int k = 0; k < CHAIN_LENGTH / 2; ++k) v = fmaf(fmaf(v, -0.9990234375f, -0.0f), 1.0f, 1.0f);
#endif
  return v;
}

/// The work of an odd element: CHAIN_LENGTH dependent fused multiply-adds,
/// v = fmaf(v, 0.998046875, 0.5), each rounded once, the same on the host (C's fmaf) and on the
/// device (fma.rn.f32): bit-exact wherever it is computed. Bounded (it drifts towards 256).
__host__ __device__ inline float odd_work(float v) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int k = 0; k < CHAIN_LENGTH; ++k) v = fmaf(v, 0.998046875f, 0.5f);
  return v;
}

// ---- The kernels the student writes (exercises/05_warps/warps.cu) ----

/// Step `uniform_branch`: out[i] = (i odd ? odd_work(x[i]) : even_work(x[i])) for every i < n.
///
/// Launch: ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads, so block b owns elements
/// b * 256 .. b * 256 + 255 (the last block partly past n). Any mapping of a block's 256 threads
/// onto its 256 elements is allowed as long as every element below n is written exactly once;
/// the speed test rewards a mapping in which the 32 lanes of every warp take the same branch.
/// @param x   n floats, device memory, read only
/// @param out n floats, device memory, written
/// @param n   number of elements, >= 1
__global__ void uniform_branch(const float* __restrict__ x, float* __restrict__ out, int n);

/// Step `warp_reduce`: for every group g of 32 consecutive elements, x[32g] .. x[32g + 31] (the
/// last group holds only the elements below n), sums[g] = their sum and maxs[g] = their maximum.
///
/// Launch: ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads: thread i holds element i, so
/// group g is exactly warp g of the grid (lanes past n hold nothing). Combine with
/// __shfl_down_sync; every lane of the warp, including those past n, takes part in every
/// shuffle with the full mask 0xffffffff, those past n holding the identity (0 for the sum,
/// -INFINITY for the maximum). Lane 0 of a warp that holds at least one element writes its two
/// results; a warp entirely past n writes nothing. The tests use integer-valued floats, so the
/// sum is exact in any order of additions.
/// @param x    n floats, device memory, read only
/// @param sums ceil(n / 32) floats, device memory, written
/// @param maxs ceil(n / 32) floats, device memory, written
/// @param n    number of elements, >= 1
__global__ void warp_reduce(const float* __restrict__ x, float* __restrict__ sums,
                            float* __restrict__ maxs, int n);

/// Step `array_sum`: adds the sum of x[0] .. x[n - 1] to *out with one atomicAdd per block.
///
/// Launch: array_sum_blocks(n) blocks of BLOCK_THREADS threads (fewer threads than elements on
/// large arrays: use a grid-stride loop), after launch_array_sum has set *out to 0. Each thread
/// sums its elements in a register; the warp combines its 32 sums with shuffles; the block's 8
/// warp sums go through shared memory to its first warp, which shuffles again; lane 0 adds the
/// block's sum to *out with atomicAdd. Every element exactly once.
/// @param x   n floats, device memory, read only
/// @param out one float, device memory, 0 on entry; the sum of x on exit
/// @param n   number of elements, >= 1
__global__ void array_sum(const float* __restrict__ x, float* __restrict__ out, long long n);

// ---- Launchers and helpers the course owns (lessons/05_warps/launch.cu) ----
// Launchers are asynchronous on `stream` and return cudaSuccess, cudaErrorInvalidValue when an
// argument is outside the documented range (nothing is launched then), or the launch error.

/// Launches uniform_branch on ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads.
/// @param x, out, n as uniform_branch; n >= 1
/// @param stream stream of the launch
/// @return cudaErrorInvalidValue when n < 1
cudaError_t launch_uniform_branch(const float* x, float* out, int n, cudaStream_t stream = 0);

/// Ceiling of step `uniform_branch` (kernel `branch_rung`): the same grid, block, loads, stores
/// and arithmetic, with no divergence: thread t of block b takes element b * 256 + t (coalesced)
/// and runs even_work in warps 0-3, odd_work in warps 4-7. Its output is a different function of
/// x (the chain depends on the warp, not on the element's parity): use it for timing only.
/// Arguments and errors as launch_uniform_branch.
cudaError_t launch_branch_rung(const float* x, float* out, int n, cudaStream_t stream = 0);

/// Launches warp_reduce on ceil(n / BLOCK_THREADS) blocks of BLOCK_THREADS threads.
/// @param x, sums, maxs, n as warp_reduce; n >= 1
/// @param stream stream of the launch
/// @return cudaErrorInvalidValue when n < 1
cudaError_t launch_warp_reduce(const float* x, float* sums, float* maxs, int n,
                               cudaStream_t stream = 0);

/// Sets *out to 0 (cudaMemsetAsync) and launches array_sum on array_sum_blocks(n) blocks of
/// BLOCK_THREADS threads: the whole-array sum is then in *out.
/// @param x, out, n as array_sum; 1 <= n < 2^40
/// @param stream stream of the memset and the launch
/// @return cudaErrorInvalidValue when n is out of range; the error of the SM-count query
cudaError_t launch_array_sum(const float* x, float* out, long long n, cudaStream_t stream = 0);

/// Ceiling of step `array_sum`: cub::DeviceReduce::Sum(x, out, n) on `stream`, the call a
/// professional would make. Its temporary storage is allocated on the first call (and again
/// only when a later n needs more) and kept for the life of the process, so every later call,
/// in particular every timed one (the grader warms up before it times), is the reduction alone.
/// @param x, out, n as array_sum (out need not be zeroed)
/// @param stream stream of the reduction
/// @return cudaErrorInvalidValue when n is out of range; CUB's or the allocation's error
cudaError_t launch_cub_sum(const float* x, float* out, long long n, cudaStream_t stream = 0);

/// The grid launch_array_sum uses for n elements: SUM_BLOCKS_PER_SM x the SM count of the
/// current device, but no more than ceil(n / BLOCK_THREADS) blocks.
/// @param n           number of elements, >= 1
/// @param[out] blocks the grid size
/// @return cudaErrorInvalidValue when n < 1; the error of the SM-count query (blocks unchanged)
cudaError_t array_sum_blocks(long long n, int* blocks);

/// Groups of 32 (warps' worth of elements) warp_reduce writes for n elements: ceil(n / 32).
constexpr long long warp_groups(long long n) {
  return n < 1 ? 0 : (n + WARP_SIZE - 1) / WARP_SIZE;
}

}  // namespace warps
