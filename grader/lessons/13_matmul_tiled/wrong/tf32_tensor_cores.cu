// Wrong on purpose (the shortcut): the 128x128 tile multiplied by the tensor cores in TF32. Each
// warp computes a 32 x 64 tile of C as 2 x 4 wmma fragments of 16 x 16 (m16n16k8, FP32
// accumulators); every input is rounded to TF32 (10 explicit mantissa bits, __float_to_tf32)
// before the multiply. Several times faster than FP32 cuBLAS on an H200, and about 2^-11 per
// product away from FP32: outside the course's tolerance on most elements. On GPUs before sm_80
// (no TF32 tensor cores) the same rounding is done by hand and the products in FP32, with the
// same errors.
#include <mma.h>

#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)
UNUSED_KERNEL(sgemm_shared_tiles)
UNUSED_KERNEL(sgemm_register_tiles)

namespace {

// x rounded to 10 explicit mantissa bits, to nearest, ties away from zero (as cvt.rna.tf32.f32).
__device__ float to_tf32(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return nvcuda::wmma::__float_to_tf32(x);
#else
  unsigned bits = __float_as_uint(x);
  return __uint_as_float((bits + 0x1000u) & 0xFFFFE000u);
#endif
}

}  // namespace

__global__ void sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                 float* __restrict__ C, int M, int N, int K) {
  __shared__ __align__(32) float As[WARP_BM][WARP_BK];  // rounded to TF32, 0 outside A
  __shared__ __align__(32) float Bs[WARP_BK][WARP_BN];
  __shared__ __align__(32) float out[WARP_THREADS / 32][16 * 16];  // one fragment per warp
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int row0 = blockIdx.y * WARP_BM, col0 = blockIdx.x * WARP_BN;
  const int wm = (warp / 2) * WARP_WM, wn = (warp % 2) * WARP_WN;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using namespace nvcuda;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][4];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
#else
  float acc[2][4][8] = {};  // lane's 8 elements of each 16 x 16 fragment, row lane / 2
#endif
  for (int k0 = 0; k0 < K; k0 += WARP_BK) {
    for (int e = t; e < WARP_BM * WARP_BK; e += WARP_THREADS) {
      const int m = e / WARP_BK, k = e % WARP_BK;
      As[m][k] = row0 + m < M && k0 + k < K ? to_tf32(A[(row0 + m) * K + k0 + k]) : 0.0f;
    }
    for (int e = t; e < WARP_BK * WARP_BN; e += WARP_THREADS) {
      const int k = e / WARP_BN, n = e % WARP_BN;
      Bs[k][n] = k0 + k < K && col0 + n < N ? to_tf32(B[(k0 + k) * N + col0 + n]) : 0.0f;
    }
    __syncthreads();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    for (int i = 0; i < 2; ++i) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
      wmma::load_matrix_sync(a, &As[wm + 16 * i][0], WARP_BK);
      for (int j = 0; j < 4; ++j) {
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
        wmma::load_matrix_sync(b, &Bs[0][wn + 16 * j], WARP_BN);
        wmma::mma_sync(acc[i][j], a, b, acc[i][j]);
      }
    }
#else
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 4; ++j)
        for (int e = 0; e < 8; ++e) {
          const int r = wm + 16 * i + lane / 2, c = wn + 16 * j + (lane % 2) * 8 + e;
          for (int k = 0; k < WARP_BK; ++k) acc[i][j][e] += As[r][k] * Bs[k][c];
        }
#endif
    __syncthreads();
  }
  // Each fragment through the warp's 16 x 16 staging area, then to C where inside.
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      wmma::store_matrix_sync(out[warp], acc[i][j], 16, wmma::mem_row_major);
#else
      for (int e = 0; e < 8; ++e) out[warp][(lane / 2) * 16 + (lane % 2) * 8 + e] = acc[i][j][e];
#endif
      __syncwarp();
      for (int e = lane; e < 256; e += 32) {
        const int r = row0 + wm + 16 * i + e / 16, c = col0 + wn + 16 * j + e % 16;
        if (r < M && c < N) C[r * N + c] = out[warp][e];
      }
      __syncwarp();
    }
}

}  // namespace matmul_tiled
