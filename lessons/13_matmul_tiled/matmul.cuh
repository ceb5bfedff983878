/// @file matmul.cuh
/// @brief Lesson 13_matmul_tiled: the kernels a student writes and the launchers the course owns.
///
/// Every step computes the same product in single precision (FP32): C = A B, with A of M x K,
/// B of K x N and C of M x N floats, all three row-major and dense (element (r, c) of a matrix
/// with `cols` columns at index r * cols + c), every sum accumulated in float. Four steps, one
/// kernel each, each launched by the course with the geometry the step teaches:
///
/// - step `naive`: one thread per element of C, a dot product of a row of A and a column of B read
///   from global memory. Blocks of NAIVE_BLOCK_X x NAIVE_BLOCK_Y threads, threadIdx.x along a
///   row of C (a warp's 32 lanes on 32 neighbouring columns). Reported, not gated. The step also
///   asks for blocks_for(), the block count every launcher of the lesson sizes its grid with.
/// - step `shared_tiles`: TILE x TILE tiles of A and B staged in shared memory, one element of C
///   per thread (blocks of TILE x TILE threads). Reported, not gated; the step requires the two
///   tiles in shared memory (the grader reads the kernel's static shared memory).
/// - step `register_tiles`: a REG_BM x REG_BN block tile of C per block of REG_THREADS threads,
///   each thread a REG_TM x REG_TN micro-tile held in registers, the k loop over REG_BK-wide
///   slices of A and B in shared memory.
/// - step `warp_tiles`: a WARP_BM x WARP_BN block tile per block of WARP_THREADS threads, each
///   thread WARP_TM x WARP_TN outputs laid out so that each warp owns a WARP_WM x WARP_WN tile of
///   C; float4 loads from global memory, the A slice stored transposed in shared memory, float4
///   reads from shared memory.
///
/// Every timed step is compared with cublasSgemm on the same matrices in the same run
/// (launch_cublas_sgemm), FP32 math pinned (no TF32).
///
/// Units and limits: sizes are element counts, 1 <= M, N, K and M * N, M * K, K * N < 2^31;
/// pointers are device pointers from cudaMalloc (256-byte aligned, so a row starts on a 16-byte
/// boundary exactly when its length is a multiple of 4 floats); A, B and C never overlap.
#pragma once

#include <cuda_runtime.h>

/// Lesson 13_matmul_tiled: kernels (student) and launchers (course).
namespace matmul_tiled {

/// Step `naive`: threads per block along a row of C (blockDim.x).
constexpr int NAIVE_BLOCK_X = 32;
/// Step `naive`: threads per block down a column of C (blockDim.y).
constexpr int NAIVE_BLOCK_Y = 8;

/// Step `shared_tiles`: side of the square tiles of A, B and C, and of the block (TILE x TILE
/// threads, one element of C each).
constexpr int TILE = 32;

/// Step `register_tiles`: rows of C per block tile.
constexpr int REG_BM = 64;
/// Step `register_tiles`: columns of C per block tile.
constexpr int REG_BN = 64;
/// Step `register_tiles`: width of the k slice staged in shared memory per iteration.
constexpr int REG_BK = 16;
/// Step `register_tiles`: rows of C per thread (its micro-tile).
constexpr int REG_TM = 4;
/// Step `register_tiles`: columns of C per thread.
constexpr int REG_TN = 4;
/// Step `register_tiles`: threads per block, (REG_BM / REG_TM) x (REG_BN / REG_TN) = 256,
/// launched as blockDim = (REG_BN / REG_TN, REG_BM / REG_TM) = (16, 16).
constexpr int REG_THREADS = (REG_BM / REG_TM) * (REG_BN / REG_TN);

/// Step `warp_tiles`: rows of C per block tile.
constexpr int WARP_BM = 128;
/// Step `warp_tiles`: columns of C per block tile.
constexpr int WARP_BN = 128;
/// Step `warp_tiles`: width of the k slice staged in shared memory per iteration.
constexpr int WARP_BK = 8;
/// Step `warp_tiles`: rows of C per thread.
constexpr int WARP_TM = 8;
/// Step `warp_tiles`: columns of C per thread.
constexpr int WARP_TN = 8;
/// Step `warp_tiles`: threads per block (one dimension, 8 warps): WARP_BM x WARP_BN / (WARP_TM x
/// WARP_TN) = 256.
constexpr int WARP_THREADS = (WARP_BM * WARP_BN) / (WARP_TM * WARP_TN);
/// Step `warp_tiles`: rows of C per warp (the solution's layout; the launcher does not depend on
/// it): 8 warps as 4 (down M) x 2 (along N).
constexpr int WARP_WM = 32;
/// Step `warp_tiles`: columns of C per warp.
constexpr int WARP_WN = 64;

// ---- What the student writes (exercises/13_matmul_tiled/matmul.cu) ----

/// Step `naive`: how many blocks of `per_block` threads (or tiles of `per_block` elements) cover
/// `extent` elements, the last one possibly partial: the smallest b with b * per_block >= extent.
/// Every launcher of this lesson sizes its grid with it, so a grid that comes up one block short
/// leaves a strip of C unwritten.
/// @param extent   elements to cover, >= 1
/// @param per_block elements per block, >= 1
int blocks_for(int extent, int per_block);

/// Step `naive`: C[r][c] = sum over k of A[r][k] * B[k][c], one thread per element of C.
///
/// Launch: blocks of NAIVE_BLOCK_X x NAIVE_BLOCK_Y threads; grid (blocks_for(N, NAIVE_BLOCK_X),
/// blocks_for(M, NAIVE_BLOCK_Y)). Thread (x, y) of block (bx, by) owns c = bx * NAIVE_BLOCK_X +
/// x, r = by * NAIVE_BLOCK_Y + y; threads with r >= M or c >= N write nothing.
/// @param A M x K floats, row-major, device memory, read only
/// @param B K x N floats, row-major, device memory, read only
/// @param C M x N floats, row-major, device memory, written
/// @param M rows of A and C, >= 1
/// @param N columns of B and C, >= 1
/// @param K columns of A, rows of B, >= 1
__global__ void sgemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K);

/// Step `shared_tiles`: C = A B through TILE x TILE tiles of A and B in shared memory, one element
/// of C per thread. The k loop walks the tiles along K: each thread loads one element of each tile
/// (0 outside the matrices), a barrier, TILE multiply-adds from shared memory, a second barrier
/// before the next tiles overwrite these.
///
/// Launch: blocks of TILE x TILE threads; grid (blocks_for(N, TILE), blocks_for(M, TILE));
/// thread (x, y) of block (bx, by) owns C[by * TILE + y][bx * TILE + x].
/// @param A, B, C, M, N, K as sgemm_naive
__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K);

/// Step `register_tiles`: C = A B with a REG_BM x REG_BN tile of C per block and a REG_TM x REG_TN
/// micro-tile of C per thread, accumulated in registers; per k slice of REG_BK, the block stages
/// REG_BM x REG_BK floats of A and REG_BK x REG_BN of B in shared memory, and each thread reads
/// REG_TM values of A and REG_TN of B per k into registers and does REG_TM x REG_TN
/// multiply-adds with them (an outer product).
///
/// Launch: blocks of (REG_BN / REG_TN, REG_BM / REG_TM) = (16, 16) threads; grid
/// (blocks_for(N, REG_BN), blocks_for(M, REG_BM)).
/// @param A, B, C, M, N, K as sgemm_naive
__global__ void sgemm_register_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K);

/// Step `warp_tiles`: C = A B with a WARP_BM x WARP_BN tile of C per block and WARP_TM x WARP_TN
/// outputs per thread, arranged so that each warp computes a compact WARP_WM x WARP_WN tile and
/// every shared-memory read is a float4 without bank conflicts; global loads are float4 where
/// the rows allow it (K and N multiples of 4), the A slice is stored transposed (k-major) in
/// shared memory.
///
/// Launch: blocks of WARP_THREADS threads (one dimension); grid (blocks_for(N, WARP_BN),
/// blocks_for(M, WARP_BM)).
/// @param A, B, C, M, N, K as sgemm_naive
__global__ void sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int M, int N, int K);

// ---- Launchers and the ceiling the course owns (lessons/13_matmul_tiled/launch.cu) ----
// Asynchronous on `stream`; they return cudaSuccess, cudaErrorInvalidValue when a size is outside
// the limits above (nothing is launched then), or the launch's error.

/// Launches sgemm_naive (geometry above).
/// @return cudaErrorInvalidValue when a size is out of range
cudaError_t launch_naive(const float* A, const float* B, float* C, int M, int N, int K,
                         cudaStream_t stream = 0);
/// Launches sgemm_shared_tiles (geometry above). Errors as launch_naive.
cudaError_t launch_shared_tiles(const float* A, const float* B, float* C, int M, int N, int K,
                                cudaStream_t stream = 0);
/// Launches sgemm_register_tiles (geometry above). Errors as launch_naive.
cudaError_t launch_register_tiles(const float* A, const float* B, float* C, int M, int N, int K,
                                  cudaStream_t stream = 0);
/// Launches sgemm_warp_tiles (geometry above). Errors as launch_naive.
cudaError_t launch_warp_tiles(const float* A, const float* B, float* C, int M, int N, int K,
                              cudaStream_t stream = 0);

/// The cuBLAS math modes this lesson uses, both FP32 throughout (no TF32 tensor cores, no
/// BF16x9 emulation).
enum class CublasMath {
  fp32_default,   ///< CUBLAS_DEFAULT_MATH: cuBLAS's fastest FP32 path (the timed ceiling)
  fp32_pedantic,  ///< CUBLAS_PEDANTIC_MATH: the prescribed precision in every phase (references)
};

/// The ceiling of every timed step: cublasSgemm on the same row-major matrices (computed as the
/// column-major product C^T = B^T A^T, no copy), alpha = 1, beta = 0, on `stream`, with the math
/// mode `math` set on a handle of this process and read back before every call: a handle whose
/// mode reads back as anything else, or an environment that asks cuBLAS for TF32 or emulation
/// (NVIDIA_TF32_OVERRIDE other than 0, CUBLAS_EMULATE_SINGLE_PRECISION set), is refused with
/// cudaErrorNotSupported, so the ceiling is always an FP32 product. The first call creates the
/// handle (not timed: the grader runs every launch once before timing it).
/// @param A      M x K floats, row-major, as sgemm_naive
/// @param B      K x N floats, row-major
/// @param C      M x N floats, row-major (written)
/// @param M      rows of A and C
/// @param N      columns of B and C
/// @param K      columns of A, rows of B
/// @param stream the stream of the call
/// @param math   which FP32 mode (default: the timed ceiling's)
/// @return cudaErrorInvalidValue for sizes out of range; cudaErrorNotSupported as above;
///   cudaErrorUnknown when cuBLAS fails (its status in the message of
///   cublas_error_text())
cudaError_t launch_cublas_sgemm(const float* A, const float* B, float* C, int M, int N, int K,
                                cudaStream_t stream = 0,
                                CublasMath math = CublasMath::fp32_default);

/// What the last launch_cublas_sgemm refused or failed with ("" after a success): a cuBLAS
/// status name, the math mode read back, or the environment variable that asked for TF32.
const char* cublas_error_text();

/// The math mode the ceiling's handle reads back, as cuBLAS names it ("CUBLAS_DEFAULT_MATH"),
/// and whether TF32 is off: for the report and the bench. Creates the handle if needed.
/// @return "unavailable: ..." when no handle could be made
const char* cublas_math_mode_name(CublasMath math = CublasMath::fp32_default);

}  // namespace matmul_tiled
