// Lesson 13_matmul_tiled: the course's solution. C = A B in FP32, row-major, any sizes.
//
// Every kernel accumulates each element of C in one float, k in increasing order within each
// thread; every load past the matrices reads 0 instead, and every store checks the bounds. The
// ladder, and what each rung fixes (README.md):
//   naive           each thread reads 2K floats for 2K flops: the loads set the pace
//   shared_tiles    a 32x32 tile is read from global memory once per block instead of once per
//                   thread; still 2 shared-memory loads per multiply-add
//   register_tiles  a 4x4 micro-tile per thread: per k, 4 + 4 shared loads feed 16 multiply-adds
//   warp_tiles      an 8x8 micro-tile from float4 shared loads (A stored transposed), float4
//                   global loads, the next slice loaded while this one is used
#include "matmul.cuh"

namespace matmul_tiled {

int blocks_for(int extent, int per_block) {
  // In 64 bits: extent + per_block - 1 can pass 2^31 - 1 for the largest extents.
  return static_cast<int>((static_cast<long long>(extent) + per_block - 1) / per_block);
}

// ============================== naive ==============================

// threadIdx.x runs along a row of C, so the 32 lanes of a warp read 32 consecutive floats of a
// row of B (coalesced) and the same float of A (one broadcast), then store 32 consecutive floats
// of C.
__global__ void sgemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  const int c = blockIdx.x * NAIVE_BLOCK_X + threadIdx.x;
  const int r = blockIdx.y * NAIVE_BLOCK_Y + threadIdx.y;
  if (r >= M || c >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
  C[r * N + c] = acc;
}

// ============================== shared_tiles ==============================

__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    // One element of each tile per thread, 0 outside the matrices (those terms then add 0).
    As[ty][tx] = r < M && k0 + tx < K ? A[r * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = k0 + ty < K && c < N ? B[(k0 + ty) * N + c] : 0.0f;
    __syncthreads();  // the tiles are complete
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();  // everyone is done with these tiles before the next loads overwrite them
  }
  if (r < M && c < N) C[r * N + c] = acc;
}

// ============================== register_tiles ==============================

// Thread (tx, ty) owns rows ty + 16 i and columns tx + 16 j of the block's 64x64 tile (i, j in
// 0..3): a strided micro-tile, so a warp (16 values of tx, 2 of ty) reads 16 consecutive floats
// of a row of Bs and 2 floats of As per load, with no bank conflict, and its stores to C cover 16
// consecutive columns.
__global__ void __launch_bounds__(REG_THREADS)
    sgemm_register_tiles(const float* __restrict__ A, const float* __restrict__ B,
                         float* __restrict__ C, int M, int N, int K) {
  constexpr int kRowsApart = REG_BM / REG_TM, kColsApart = REG_BN / REG_TN;  // 16, 16
  __shared__ float As[REG_BM][REG_BK];
  __shared__ float Bs[REG_BK][REG_BN];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * kColsApart + tx;
  const int row0 = blockIdx.y * REG_BM, col0 = blockIdx.x * REG_BN;
  float acc[REG_TM][REG_TN] = {};
  for (int k0 = 0; k0 < K; k0 += REG_BK) {
    // The 64x16 slice of A and the 16x64 slice of B, 4 floats of each per thread; consecutive
    // threads on consecutive columns (coalesced loads, conflict-free stores).
#pragma unroll
    for (int p = 0; p < REG_BM * REG_BK / REG_THREADS; ++p) {
      const int rr = t / REG_BK + p * (REG_THREADS / REG_BK), kk = t % REG_BK;
      const int gr = row0 + rr, gk = k0 + kk;
      As[rr][kk] = gr < M && gk < K ? A[gr * K + gk] : 0.0f;
    }
#pragma unroll
    for (int p = 0; p < REG_BK * REG_BN / REG_THREADS; ++p) {
      const int kk = t / REG_BN + p * (REG_THREADS / REG_BN), cc = t % REG_BN;
      const int gk = k0 + kk, gc = col0 + cc;
      Bs[kk][cc] = gk < K && gc < N ? B[gk * N + gc] : 0.0f;
    }
    __syncthreads();
    // Per k: 4 values of A and 4 of B into registers, then their 16 products (an outer product):
    // 8 shared loads for 16 multiply-adds, against 32 in shared_tiles (in the SASS, with some
    // merged into 16-byte loads: 80 load instructions per 256 FFMA against 40 per 32;
    // docs/measured/compiler.md, "Lesson 13").
#pragma unroll
    for (int k = 0; k < REG_BK; ++k) {
      float a[REG_TM], b[REG_TN];
#pragma unroll
      for (int i = 0; i < REG_TM; ++i) a[i] = As[ty + i * kRowsApart][k];
#pragma unroll
      for (int j = 0; j < REG_TN; ++j) b[j] = Bs[k][tx + j * kColsApart];
#pragma unroll
      for (int i = 0; i < REG_TM; ++i)
#pragma unroll
        for (int j = 0; j < REG_TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < REG_TM; ++i) {
    const int r = row0 + ty + i * kRowsApart;
#pragma unroll
    for (int j = 0; j < REG_TN; ++j) {
      const int c = col0 + tx + j * kColsApart;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
  }
}

// ============================== warp_tiles ==============================
//
// The design (the one Volkov and Demmel's and CUTLASS's SGEMMs made standard; README section 5):
//   - a 128x128 tile of C per block of 256 threads, the k loop over slices of 8;
//   - each warp owns a 32 (rows) x 64 (columns) tile of C: 8 warps as 4 x 2;
//   - each lane owns an 8x8 micro-tile made of 2 x 2 sub-tiles of 4x4, 16 rows and 32 columns
//     apart: rows lane_row + {0..3} and lane_row + 16 + {0..3} of the warp's tile, columns
//     lane_col + {0..3} and lane_col + 32 + {0..3}, lanes as 4 (rows) x 8 (columns). Then per k
//     a lane needs 8 consecutive-in-pairs values of A and of B: two float4 shared loads each, and
//     the 32 lanes read 4 distinct float4s of A (broadcast) and 8 consecutive float4s of B
//     (128 bytes): no bank conflict. 4 shared loads feed 64 multiply-adds;
//   - A's slice is stored transposed, As[k][m], so that a lane's 4 rows at one k are 4
//     consecutive floats (one float4); each row of As is padded by 4 floats so that the
//     transposing stores (lanes 2 apart on the same m) fall in 32 different banks;
//   - global loads are float4 when K (for A) and N (for B and C) are multiples of 4, so that
//     every row starts 16-byte aligned (cudaMalloc's base is); one by one otherwise;
//   - two buffers of each slice: the next slice's global loads are issued into registers before
//     this slice's arithmetic and stored to the other buffer after it, so their latency hides
//     behind 512 multiply-adds per thread, with one barrier per slice.

namespace {

constexpr int kAPad = 4;                                         // floats of padding per row of As
constexpr int kWarpsAlongN = WARP_BN / WARP_WN;                  // 2
constexpr int kLanesAlongN = (WARP_WN / 2) / 4;                  // 8: lanes along a warp's row
constexpr int kHalfWM = WARP_WM / 2, kHalfWN = WARP_WN / 2;      // 16, 32: the sub-tiles' offsets
constexpr int kSlices = WARP_BM * WARP_BK / (4 * WARP_THREADS);  // float4s of A per thread: 1

// row[col .. col + 3], zeros past `limit` (or for a row outside the matrix): one float4 load when
// `vec` (col and limit multiples of 4, so the four are all inside or all outside), else four.
__device__ __forceinline__ float4 load4(const float* __restrict__ row, bool row_inside, int col,
                                        int limit, bool vec) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (!row_inside) return v;
  if (vec) {
    if (col < limit) v = *reinterpret_cast<const float4*>(row + col);
    return v;
  }
  if (col < limit) v.x = row[col];
  if (col + 1 < limit) v.y = row[col + 1];
  if (col + 2 < limit) v.z = row[col + 2];
  if (col + 3 < limit) v.w = row[col + 3];
  return v;
}

// One element of C, or four consecutive ones, from a lane's accumulators.
__device__ __forceinline__ void store4(float* __restrict__ C, int M, int N, int r, int c,
                                       const float* v, bool vec) {
  if (r >= M) return;
  float* row = C + static_cast<long long>(r) * N;
  if (vec) {
    if (c < N) *reinterpret_cast<float4*>(row + c) = make_float4(v[0], v[1], v[2], v[3]);
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (c + j < N) row[c + j] = v[j];
}

}  // namespace

__global__ void __launch_bounds__(WARP_THREADS, 2)
    sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C, int M, int N, int K) {
  static_assert(kSlices == 1 && WARP_BK * WARP_BN == 4 * WARP_THREADS,
                "one float4 of A and one of B per thread and slice");
  __shared__ __align__(16) float As[2][WARP_BK][WARP_BM + kAPad];
  __shared__ __align__(16) float Bs[2][WARP_BK][WARP_BN];

  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int row0 = blockIdx.y * WARP_BM, col0 = blockIdx.x * WARP_BN;
  // Where this lane's sub-tiles start inside the block's tile.
  const int m0 = (warp / kWarpsAlongN) * WARP_WM + (lane / kLanesAlongN) * 4;
  const int n0 = (warp % kWarpsAlongN) * WARP_WN + (lane % kLanesAlongN) * 4;

  // What this thread loads per slice: A[row0 + a_m][k0 + a_k .. +3] (128 rows x 8 columns: two
  // threads per row) and B[k0 + b_k][col0 + b_n .. +3] (8 rows x 128 columns: 32 per row).
  const int a_m = t / 2, a_k = (t % 2) * 4;
  const int b_k = t / 32, b_n = (t % 32) * 4;
  const bool a_vec = K % 4 == 0, b_vec = N % 4 == 0;
  const float* a_row = A + static_cast<long long>(row0 + a_m) * K;
  const bool a_inside = row0 + a_m < M;

  auto load_a = [&](int k0) { return load4(a_row, a_inside, k0 + a_k, K, a_vec); };
  auto load_b = [&](int k0) {
    const bool inside = k0 + b_k < K;
    return load4(B + static_cast<long long>(inside ? k0 + b_k : 0) * N, inside, col0 + b_n, N,
                 b_vec);
  };
  auto store_slices = [&](int buf, float4 a, float4 b) {
    As[buf][a_k + 0][a_m] = a.x;  // transposed: k-major
    As[buf][a_k + 1][a_m] = a.y;
    As[buf][a_k + 2][a_m] = a.z;
    As[buf][a_k + 3][a_m] = a.w;
    *reinterpret_cast<float4*>(&Bs[buf][b_k][b_n]) = b;
  };

  float acc[WARP_TM][WARP_TN] = {};
  const int slices = (K + WARP_BK - 1) / WARP_BK;
  store_slices(0, load_a(0), load_b(0));
  __syncthreads();

  for (int s = 0; s < slices; ++s) {
    const int cur = s & 1;
    const bool more = s + 1 < slices;
    float4 next_a = make_float4(0.0f, 0.0f, 0.0f, 0.0f), next_b = next_a;
    if (more) {  // issued now, used after the arithmetic below
      next_a = load_a((s + 1) * WARP_BK);
      next_b = load_b((s + 1) * WARP_BK);
    }
#pragma unroll
    for (int k = 0; k < WARP_BK; ++k) {
      const float4 a_lo = *reinterpret_cast<const float4*>(&As[cur][k][m0]);
      const float4 a_hi = *reinterpret_cast<const float4*>(&As[cur][k][m0 + kHalfWM]);
      const float4 b_lo = *reinterpret_cast<const float4*>(&Bs[cur][k][n0]);
      const float4 b_hi = *reinterpret_cast<const float4*>(&Bs[cur][k][n0 + kHalfWN]);
      const float a[WARP_TM] = {a_lo.x, a_lo.y, a_lo.z, a_lo.w, a_hi.x, a_hi.y, a_hi.z, a_hi.w};
      const float b[WARP_TN] = {b_lo.x, b_lo.y, b_lo.z, b_lo.w, b_hi.x, b_hi.y, b_hi.z, b_hi.w};
#pragma unroll
      for (int i = 0; i < WARP_TM; ++i)
#pragma unroll
        for (int j = 0; j < WARP_TN; ++j) acc[i][j] += a[i] * b[j];
    }
    // The other buffer was last read in the previous slice, before the barrier that ended it.
    if (more) store_slices(cur ^ 1, next_a, next_b);
    __syncthreads();
  }

  // acc[i][j]: row m0 + (i / 4) * 16 + i % 4, columns n0 + (j / 4) * 32 + j % 4 of the tile.
#pragma unroll
  for (int i = 0; i < WARP_TM; ++i) {
    const int r = row0 + m0 + (i / 4) * kHalfWM + i % 4;
    store4(C, M, N, r, col0 + n0, &acc[i][0], b_vec);
    store4(C, M, N, r, col0 + n0 + kHalfWN, &acc[i][4], b_vec);
  }
}

}  // namespace matmul_tiled
