// A student's trial of lesson 13 (ninth session, written from the texts alone on a machine without
// a GPU). Graded on the H200 in the tenth session (copied over
// exercises/13_matmul_tiled/matmul.cu): every step passed, 51.3% and 79.9% of cuBLAS on the gated
// steps; --sanitize clean. Lesson 13_matmul_tiled: complete the function and the kernels below,
// then run
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
  // Round up, in 64 bits: extent + per_block - 1 can pass 2^31 - 1 when extent is near it.
  const long long blocks =
      (static_cast<long long>(extent) + per_block - 1) / static_cast<long long>(per_block);
  return static_cast<int>(blocks);
}

// Grid: (blocks_for(N, 32), blocks_for(M, 8)) blocks of 32 x 8 threads; thread (x, y) of block
// (bx, by) on element (r, c) = (by * 8 + y, bx * 32 + x) of C.
__global__ void sgemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  const int c = blockIdx.x * NAIVE_BLOCK_X + threadIdx.x;
  const int r = blockIdx.y * NAIVE_BLOCK_Y + threadIdx.y;
  if (r >= M || c >= N) return;
  // Row r of A starts at r * K; M * K < 2^31 (header), so int is enough, but use size_t for the
  // products anyway: cheap and safe.
  const float* a = A + static_cast<size_t>(r) * K;
  const float* b = B + c;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += a[k] * b[static_cast<size_t>(k) * N];
  C[static_cast<size_t>(r) * N + c] = acc;
}

// Grid: (blocks_for(N, 32), blocks_for(M, 32)) blocks of 32 x 32 threads, one element of C each.
__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int r = blockIdx.y * TILE + ty;  // row of C (and of A) this thread owns
  const int c = blockIdx.x * TILE + tx;  // column of C (and of B)
  // No early return for r >= M or c >= N: every thread loads its share of the tiles and must
  // reach both barriers. Only the final store is guarded.
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    const int ka = k0 + tx;  // column of A this thread loads (row r)
    const int kb = k0 + ty;  // row of B this thread loads (column c)
    As[ty][tx] = (r < M && ka < K) ? A[static_cast<size_t>(r) * K + ka] : 0.0f;
    Bs[ty][tx] = (kb < K && c < N) ? B[static_cast<size_t>(kb) * N + c] : 0.0f;
    __syncthreads();  // both tiles complete
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // nobody overwrites the tiles while a slower warp still reads them
  }
  if (r < M && c < N) C[static_cast<size_t>(r) * N + c] = acc;
}

// Grid: (blocks_for(N, 64), blocks_for(M, 64)) blocks of 16 x 16 threads; a 64x64 tile of C per
// block, 4x4 elements per thread.
__global__ void sgemm_register_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K) {
  // Threads per block along a row / down a column of the block tile: 16 x 16.
  constexpr int TX = REG_BN / REG_TN;  // 16
  constexpr int TY = REG_BM / REG_TM;  // 16
  // Loading A's REG_BM x REG_BK slice: REG_BK consecutive threads on the REG_BK columns of a row,
  // REG_THREADS / REG_BK = 16 rows at a time, 4 passes. Same for B's REG_BK x REG_BN slice: 64
  // consecutive threads along a row, 4 rows at a time, 4 passes.
  constexpr int A_ROWS_PER_PASS = REG_THREADS / REG_BK;  // 16
  constexpr int B_ROWS_PER_PASS = REG_THREADS / REG_BN;  // 4
  static_assert(REG_BM % A_ROWS_PER_PASS == 0 && REG_BK % B_ROWS_PER_PASS == 0, "load passes");
  __shared__ float As[REG_BM][REG_BK];  // [m][k]: a store row is 16 consecutive words
  __shared__ float Bs[REG_BK][REG_BN];  // [k][n]

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * TX + tx;
  const int row0 = blockIdx.y * REG_BM;  // first row of the block's tile of C
  const int col0 = blockIdx.x * REG_BN;  // first column

  const int a_col = tid % REG_BK;  // k within the slice
  const int a_row = tid / REG_BK;  // 0..15, + 16 p
  const int b_col = tid % REG_BN;  // n within the tile
  const int b_row = tid / REG_BN;  // 0..3, + 4 p

  float acc[REG_TM][REG_TN];
#pragma unroll
  for (int i = 0; i < REG_TM; ++i)
#pragma unroll
    for (int j = 0; j < REG_TN; ++j) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < K; k0 += REG_BK) {
#pragma unroll
    for (int p = 0; p < REG_BM / A_ROWS_PER_PASS; ++p) {
      const int m = a_row + p * A_ROWS_PER_PASS;
      const int gr = row0 + m;
      const int gk = k0 + a_col;
      As[m][a_col] = (gr < M && gk < K) ? A[static_cast<size_t>(gr) * K + gk] : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < REG_BK / B_ROWS_PER_PASS; ++p) {
      const int kk = b_row + p * B_ROWS_PER_PASS;
      const int gk = k0 + kk;
      const int gc = col0 + b_col;
      Bs[kk][b_col] = (gk < K && gc < N) ? B[static_cast<size_t>(gk) * N + gc] : 0.0f;
    }
    __syncthreads();  // the slices are complete

#pragma unroll
    for (int k = 0; k < REG_BK; ++k) {
      float a[REG_TM];
      float b[REG_TN];
#pragma unroll
      for (int i = 0; i < REG_TM; ++i) a[i] = As[ty + TY * i][k];  // strided micro-tile rows
#pragma unroll
      for (int j = 0; j < REG_TN; ++j) b[j] = Bs[k][tx + TX * j];  // strided micro-tile columns
#pragma unroll
      for (int i = 0; i < REG_TM; ++i)
#pragma unroll
        for (int j = 0; j < REG_TN; ++j) acc[i][j] += a[i] * b[j];  // outer product
    }
    __syncthreads();  // nobody loads the next slices over these while a warp still reads them
  }

#pragma unroll
  for (int i = 0; i < REG_TM; ++i) {
    const int r = row0 + ty + TY * i;
    if (r >= M) continue;
#pragma unroll
    for (int j = 0; j < REG_TN; ++j) {
      const int c = col0 + tx + TX * j;
      if (c < N) C[static_cast<size_t>(r) * N + c] = acc[i][j];
    }
  }
}

// Grid: (blocks_for(N, 128), blocks_for(M, 128)) blocks of 256 threads (one dimension); a 128x128
// tile of C per block, 8x8 elements per thread.
// __launch_bounds__(256, 2): at most 128 registers, two blocks per SM (README section 5).
__global__ void __launch_bounds__(WARP_THREADS, 2)
    sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C, int M, int N, int K) {
  // Layout (README section 5):
  //   8 warps as 4 (down M) x 2 (along N), each a WARP_WM x WARP_WN = 32 x 64 tile of C;
  //   32 lanes as 4 (down M) x 8 (along N); a lane owns rows  wr + lm*4 + {0..3} and the same + 16,
  //                                           and columns     wc + ln*4 + {0..3} and the same + 32:
  //   2 x 2 sub-tiles of 4x4, i.e. 8 x 8 = 64 outputs.
  constexpr int PAD = 4;                     // As rows padded by 4 floats (stays a multiple of 4)
  constexpr int A_STRIDE = WARP_BM + PAD;    // 132
  constexpr int LANES_N = 8;                 // lanes along N
  constexpr int SUB = 4;                     // side of a sub-tile
  constexpr int SUB_STEP_M = (WARP_WM / 2);  // 16: the second sub-tile row block
  constexpr int SUB_STEP_N = (WARP_WN / 2);  // 32: the second sub-tile column block
  static_assert(WARP_THREADS == 256 && WARP_BK == 8 && WARP_TM == 8 && WARP_TN == 8, "layout");
  static_assert((WARP_BM / WARP_WM) * (WARP_BN / WARP_WN) == WARP_THREADS / 32, "8 warps");

  // Two buffers of each slice. __align__(16): the float4 reads below need it.
  __shared__ __align__(16) float As[2][WARP_BK][A_STRIDE];  // transposed: [k][m]
  __shared__ __align__(16) float Bs[2][WARP_BK][WARP_BN];   // [k][n]

  const int t = threadIdx.x;
  const int warp = t / 32;
  const int lane = t % 32;
  const int wr = (warp / (WARP_BN / WARP_WN)) * WARP_WM;  // warp's first row in the block tile
  const int wc = (warp % (WARP_BN / WARP_WN)) * WARP_WN;  // warp's first column
  const int am = wr + (lane / LANES_N) * SUB;             // lane's first row
  const int bn = wc + (lane % LANES_N) * SUB;             // lane's first column

  const int row0 = blockIdx.y * WARP_BM;
  const int col0 = blockIdx.x * WARP_BN;

  // Global loads per slice: A row t/2, columns (t%2)*4..+3 of the slice; B row t/32, columns
  // (t%32)*4..+3 of the tile.
  const int la_m = t / 2;
  const int la_k = (t % 2) * 4;
  const int lb_k = t / 32;
  const int lb_n = (t % 32) * 4;
  const int ga_row = row0 + la_m;
  const int gb_col = col0 + lb_n;
  // Block-uniform: float4 only when every row starts on 16 bytes.
  const bool a_vec = (K % 4) == 0;
  const bool b_vec = (N % 4) == 0;

  float pa[4];  // prefetched A: A[ga_row][k0 + la_k + q]
  float pb[4];  // prefetched B: B[k0 + lb_k][gb_col + q]

  auto load_slice = [&](int k0) {
    const int gk_a = k0 + la_k;
    if (a_vec) {
      // K % 4 == 0 and gk_a % 4 == 0: the 4 floats are all inside or all outside.
      if (ga_row < M && gk_a < K) {
        const float4 v =
            *reinterpret_cast<const float4*>(A + static_cast<size_t>(ga_row) * K + gk_a);
        pa[0] = v.x;
        pa[1] = v.y;
        pa[2] = v.z;
        pa[3] = v.w;
      } else {
        pa[0] = pa[1] = pa[2] = pa[3] = 0.0f;
      }
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        pa[q] = (ga_row < M && gk_a + q < K) ? A[static_cast<size_t>(ga_row) * K + gk_a + q] : 0.0f;
    }
    const int gk_b = k0 + lb_k;
    if (b_vec) {
      if (gk_b < K && gb_col < N) {
        const float4 v =
            *reinterpret_cast<const float4*>(B + static_cast<size_t>(gk_b) * N + gb_col);
        pb[0] = v.x;
        pb[1] = v.y;
        pb[2] = v.z;
        pb[3] = v.w;
      } else {
        pb[0] = pb[1] = pb[2] = pb[3] = 0.0f;
      }
    } else {
#pragma unroll
      for (int q = 0; q < 4; ++q)
        pb[q] = (gk_b < K && gb_col + q < N) ? B[static_cast<size_t>(gk_b) * N + gb_col + q] : 0.0f;
    }
  };
  auto store_slice = [&](int buf) {
#pragma unroll
    for (int q = 0; q < 4; ++q) As[buf][la_k + q][la_m] = pa[q];  // transposing: down a column
    *reinterpret_cast<float4*>(&Bs[buf][lb_k][lb_n]) = make_float4(pb[0], pb[1], pb[2], pb[3]);
  };

  float acc[WARP_TM][WARP_TN];
#pragma unroll
  for (int i = 0; i < WARP_TM; ++i)
#pragma unroll
    for (int j = 0; j < WARP_TN; ++j) acc[i][j] = 0.0f;

  const int slices = (K + WARP_BK - 1) / WARP_BK;  // >= 1 since K >= 1
  load_slice(0);
  store_slice(0);
  __syncthreads();

  for (int s = 0; s < slices; ++s) {
    const int cur = s & 1;
    const bool more = s + 1 < slices;         // block-uniform
    if (more) load_slice((s + 1) * WARP_BK);  // global loads in flight during the arithmetic

#pragma unroll
    for (int k = 0; k < WARP_BK; ++k) {
      const float4 a0 = *reinterpret_cast<const float4*>(&As[cur][k][am]);
      const float4 a1 = *reinterpret_cast<const float4*>(&As[cur][k][am + SUB_STEP_M]);
      const float4 b0 = *reinterpret_cast<const float4*>(&Bs[cur][k][bn]);
      const float4 b1 = *reinterpret_cast<const float4*>(&Bs[cur][k][bn + SUB_STEP_N]);
      const float a[WARP_TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[WARP_TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < WARP_TM; ++i)
#pragma unroll
        for (int j = 0; j < WARP_TN; ++j) acc[i][j] += a[i] * b[j];
    }

    // The other buffer was last read in iteration s - 1, before the previous barrier.
    if (more) store_slice(cur ^ 1);
    __syncthreads();
  }

  // Store: acc[i][j] is row am + (i % 4) + 16 * (i / 4), column bn + (j % 4) + 32 * (j / 4).
#pragma unroll
  for (int i = 0; i < WARP_TM; ++i) {
    const int r = row0 + am + (i % SUB) + SUB_STEP_M * (i / SUB);
    if (r >= M) continue;
    float* crow = C + static_cast<size_t>(r) * N;
#pragma unroll
    for (int jj = 0; jj < WARP_TN / SUB; ++jj) {
      const int c = col0 + bn + SUB_STEP_N * jj;
      const float* v = &acc[i][jj * SUB];
      if (b_vec) {
        // N % 4 == 0 and c % 4 == 0: all four columns inside or all outside; 16-byte aligned.
        if (c < N) *reinterpret_cast<float4*>(crow + c) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int q = 0; q < SUB; ++q)
          if (c + q < N) crow[c + q] = v[q];
      }
    }
  }
}

}  // namespace matmul_tiled
