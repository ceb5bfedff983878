// Lesson 13_matmul_tiled: complete the function and the kernels below, then run
// `./build/grader 13_matmul_tiled`.
//
// C = A B in FP32: A is M x K, B is K x N, C is M x N, all row-major (element (r, c) of a matrix
// with `cols` columns at index r * cols + c). Sizes are anything from 1 up: never assume a
// multiple of a tile. The launches are in lessons/13_matmul_tiled/launch.cu and are not yours to
// change; the header lessons/13_matmul_tiled/matmul.cuh documents the geometry of each kernel and
// its constants; README.md explains the lesson.
//
//   step naive:          blocks_for, then one thread per element of C
//   step shared_tiles:   32x32 tiles of A and B in shared memory, one element per thread
//   step register_tiles: a 64x64 tile per block, a 4x4 micro-tile per thread in registers
//   step warp_tiles:     a 128x128 tile per block, 8x8 per thread, float4 loads, A transposed
//
// Accumulate every element of C in a float. Past the edges of A and B, load 0; before every store
// to C, check the bounds.
#include "matmul.cuh"

namespace matmul_tiled {

// Every launcher sizes its grid with this: the number of blocks of `per_block` that cover
// `extent`.
int blocks_for(int extent, int per_block) {
  // TODO(naive): round the division up (the last block may be partial); compute it in 64 bits.
  (void)extent;
  (void)per_block;
  return 1;
}

// Grid: (blocks_for(N, 32), blocks_for(M, 8)) blocks of 32 x 8 threads; thread (x, y) of block
// (bx, by) on element (r, c) = (by * 8 + y, bx * 32 + x) of C.
__global__ void sgemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  // TODO(naive): threads outside M x N return; the others sum A[r][k] * B[k][c] over k in a float
  // and store it to C[r][c].
}

// Grid: (blocks_for(N, 32), blocks_for(M, 32)) blocks of 32 x 32 threads, one element of C each.
__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  // TODO(shared_tiles): __shared__ float As[TILE][TILE], Bs[TILE][TILE]. For each tile of 32
  // along K: each thread loads one element of each (0 outside the matrices), __syncthreads(),
  // 32 multiply-adds from the tiles, __syncthreads() again before the next loads. Then store.
  // No early return: threads outside C still load tile elements and reach every barrier; guard
  // only the store.
}

// Grid: (blocks_for(N, 64), blocks_for(M, 64)) blocks of 16 x 16 threads; a 64x64 tile of C per
// block, 4x4 elements per thread.
__global__ void sgemm_register_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K) {
  // TODO(register_tiles): per k slice of REG_BK = 16: the block stages A's 64 x 16 slice and B's
  // 16 x 64 slice in shared memory (4 floats of each per thread); then for each k, each thread
  // copies its 4 values of A and 4 of B into registers and adds their 16 products into
  // float acc[4][4]. Rows ty + 16 i and columns tx + 16 j of the block's tile are a good choice
  // of micro-tile (README section 4).
}

// Grid: (blocks_for(N, 128), blocks_for(M, 128)) blocks of 256 threads (one dimension); a 128x128
// tile of C per block, 8x8 elements per thread.
__global__ void sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int M, int N, int K) {
  // TODO(warp_tiles): per k slice of WARP_BK = 8: one float4 of A per thread stored transposed
  // (As[k][m], rows padded by 4 floats) and one float4 of B (Bs[k][n]); float4 global loads only
  // when K % 4 == 0 (A) and N % 4 == 0 (B), four guarded scalars otherwise. Each warp a 32x64 tile
  // of C, each lane four 4x4 sub-tiles (two row groups 16 apart x two column groups 32 apart),
  // read from shared memory as float4s (declare the arrays __align__(16)); the next slice loaded
  // into registers before this slice's arithmetic, stored into a second buffer after it (README
  // section 5).
}

}  // namespace matmul_tiled
