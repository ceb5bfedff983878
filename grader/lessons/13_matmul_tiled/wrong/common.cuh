// Pieces of the wrong submissions of lesson 13_matmul_tiled. A wrong submission is graded only on
// the step the manifest names; the kernels of the other steps are empty here (UNUSED_*), and
// blocks_for is right unless the file is about it (RIGHT_BLOCKS_FOR).
//
// Two configurable kernels serve several files each: the 32x32 tiled kernel with or without its
// bounds checks and its second barrier, and the 128x128 block tile with an 8x8 micro-tile per
// thread, with or without float4 global loads, A's slice transposed, and the warp-tiled layout.
#pragma once

#include "matmul.cuh"

#define RIGHT_BLOCKS_FOR                                                                   \
  int blocks_for(int extent, int per_block) {                                              \
    return static_cast<int>((static_cast<long long>(extent) + per_block - 1) / per_block); \
  }

#define UNUSED_KERNEL(name)                                                                       \
  __global__ void name(const float* __restrict__, const float* __restrict__, float* __restrict__, \
                       int, int, int) {}

// A whole submission graded as warp_tiles: the block tile with the given flags (block_tile below).
#define BLOCK_TILE_SUBMISSION(kVector, kTransposeA, kWarpLayout)                 \
  RIGHT_BLOCKS_FOR                                                               \
  UNUSED_KERNEL(sgemm_naive)                                                     \
  UNUSED_KERNEL(sgemm_shared_tiles)                                              \
  UNUSED_KERNEL(sgemm_register_tiles)                                            \
  __global__ void __launch_bounds__(WARP_THREADS, 2)                             \
      sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B, \
                       float* __restrict__ C, int M, int N, int K) {             \
    wrong::block_tile<kVector, kTransposeA, kWarpLayout>(A, B, C, M, N, K);      \
  }

namespace matmul_tiled {
namespace wrong {

// ---- the 32x32 tiled kernel (step shared_tiles) ----

// C = A B with 32x32 tiles, one element per thread; without kGuards no load or store checks the
// bounds; without kSecondSync the loads of the next tiles do not wait for the reads of these.
template <bool kGuards, bool kSecondSync>
__device__ void tiled(const float* __restrict__ A, const float* __restrict__ B,
                      float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    if (kGuards) {
      As[ty][tx] = r < M && k0 + tx < K ? A[r * K + k0 + tx] : 0.0f;
      Bs[ty][tx] = k0 + ty < K && c < N ? B[(k0 + ty) * N + c] : 0.0f;
    } else {
      As[ty][tx] = A[r * K + k0 + tx];
      Bs[ty][tx] = B[(k0 + ty) * N + c];
    }
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    if (kSecondSync) __syncthreads();
  }
  if (!kGuards || (r < M && c < N)) C[r * N + c] = acc;
}

// ---- the 128x128 block tile, 8x8 per thread (step warp_tiles) ----

constexpr int kPad = 4;

// row[col .. col + 3] with zeros outside: one float4 when kVector and `vec` hold, else scalars.
template <bool kVector>
__device__ __forceinline__ float4 load_four(const float* row, bool inside, int col, int limit,
                                            bool vec) {
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (!inside) return v;
  if (kVector && vec) {
    if (col < limit) v = *reinterpret_cast<const float4*>(row + col);
    return v;
  }
  float* f = &v.x;
  for (int j = 0; j < 4; ++j)
    if (col + j < limit) f[j] = row[col + j];
  return v;
}

// kVector: float4 global loads (where K, N allow) and float4 reads of Bs; kTransposeA: A's slice
// k-major (float4 reads of a thread's rows) or as in global memory (8 scalar reads down a
// column); kWarpLayout: the solution's lanes (two 4x4 sub-tiles 16 rows and 32 columns apart) or
// thread t on the 8 consecutive rows (t / 16) * 8 and columns (t % 16) * 8.
template <bool kVector, bool kTransposeA, bool kWarpLayout>
__device__ void block_tile(const float* __restrict__ A, const float* __restrict__ B,
                           float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(
      16) float As[2][kTransposeA ? WARP_BK : WARP_BM][kTransposeA ? WARP_BM + kPad : WARP_BK];
  __shared__ __align__(16) float Bs[2][WARP_BK][WARP_BN];
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int row0 = blockIdx.y * WARP_BM, col0 = blockIdx.x * WARP_BN;
  // Rows of the tile: rm(i) for i < 8; columns cn(j) for j < 8.
  const int m0 = kWarpLayout ? (warp / 2) * WARP_WM + (lane / 8) * 4 : (t / 16) * WARP_TM;
  const int n0 = kWarpLayout ? (warp % 2) * WARP_WN + (lane % 8) * 4 : (t % 16) * WARP_TN;
  auto rm = [&](int i) { return kWarpLayout ? m0 + (i / 4) * (WARP_WM / 2) + i % 4 : m0 + i; };
  auto cn = [&](int j) { return kWarpLayout ? n0 + (j / 4) * (WARP_WN / 2) + j % 4 : n0 + j; };

  const int a_m = t / 2, a_k = (t % 2) * 4, b_k = t / 32, b_n = (t % 32) * 4;
  const bool a_vec = K % 4 == 0, b_vec = N % 4 == 0;
  const float* a_row = A + static_cast<long long>(row0 + a_m) * K;
  auto load_a = [&](int k0) {
    return load_four<kVector>(a_row, row0 + a_m < M, k0 + a_k, K, a_vec);
  };
  auto load_b = [&](int k0) {
    const bool inside = k0 + b_k < K;
    return load_four<kVector>(B + static_cast<long long>(inside ? k0 + b_k : 0) * N, inside,
                              col0 + b_n, N, b_vec);
  };
  auto store = [&](int buf, float4 a, float4 b) {
    const float* f = &a.x;
    for (int j = 0; j < 4; ++j) {
      if (kTransposeA)
        reinterpret_cast<float*>(As[buf])[(a_k + j) * (WARP_BM + kPad) + a_m] = f[j];
      else
        reinterpret_cast<float*>(As[buf])[a_m * WARP_BK + a_k + j] = f[j];
    }
    *reinterpret_cast<float4*>(&Bs[buf][b_k][b_n]) = b;
  };
  auto a_at = [&](int buf, int k, int m) {
    const float* base = reinterpret_cast<const float*>(As[buf]);
    return kTransposeA ? base[k * (WARP_BM + kPad) + m] : base[m * WARP_BK + k];
  };

  float acc[WARP_TM][WARP_TN] = {};
  const int slices = (K + WARP_BK - 1) / WARP_BK;
  store(0, load_a(0), load_b(0));
  __syncthreads();
  for (int s = 0; s < slices; ++s) {
    const int cur = s & 1;
    const bool more = s + 1 < slices;
    float4 na = make_float4(0.0f, 0.0f, 0.0f, 0.0f), nb = na;
    if (more) {
      na = load_a((s + 1) * WARP_BK);
      nb = load_b((s + 1) * WARP_BK);
    }
#pragma unroll
    for (int k = 0; k < WARP_BK; ++k) {
      float a[WARP_TM], b[WARP_TN];
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        if (kTransposeA) {
          const float4 v = *reinterpret_cast<const float4*>(
              reinterpret_cast<const float*>(As[cur]) + k * (WARP_BM + kPad) + rm(4 * q));
          a[4 * q] = v.x, a[4 * q + 1] = v.y, a[4 * q + 2] = v.z, a[4 * q + 3] = v.w;
        } else {
#pragma unroll
          for (int i = 0; i < 4; ++i) a[4 * q + i] = a_at(cur, k, rm(4 * q + i));
        }
        if (kVector) {
          const float4 v = *reinterpret_cast<const float4*>(&Bs[cur][k][cn(4 * q)]);
          b[4 * q] = v.x, b[4 * q + 1] = v.y, b[4 * q + 2] = v.z, b[4 * q + 3] = v.w;
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j) b[4 * q + j] = Bs[cur][k][cn(4 * q + j)];
        }
      }
#pragma unroll
      for (int i = 0; i < WARP_TM; ++i)
#pragma unroll
        for (int j = 0; j < WARP_TN; ++j) acc[i][j] += a[i] * b[j];
    }
    if (more) store(cur ^ 1, na, nb);
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < WARP_TM; ++i) {
    const int r = row0 + rm(i);
#pragma unroll
    for (int j = 0; j < WARP_TN; ++j) {
      const int c = col0 + cn(j);
      if (r < M && c < N) C[static_cast<long long>(r) * N + c] = acc[i][j];
    }
  }
}

}  // namespace wrong
}  // namespace matmul_tiled
