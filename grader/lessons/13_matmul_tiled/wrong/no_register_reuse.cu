// Wrong on purpose (slow): the near miss of register_tiles. The same 64x64 block tile, 16-wide
// slices of A and B in shared memory and 4x4 outputs per thread, but each output's 16 products
// read their A and B values from shared memory again: 32 shared loads per 16 multiply-adds (as
// in shared_tiles), none of the micro-tile's reuse in registers.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)
UNUSED_KERNEL(sgemm_shared_tiles)

__global__ void sgemm_register_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K) {
  constexpr int kApart = REG_BM / REG_TM;  // 16: rows and columns of a thread's outputs
  __shared__ float As[REG_BM][REG_BK];
  __shared__ float Bs[REG_BK][REG_BN];
  const int tx = threadIdx.x, ty = threadIdx.y, t = ty * kApart + tx;
  const int row0 = blockIdx.y * REG_BM, col0 = blockIdx.x * REG_BN;
  float acc[REG_TM][REG_TN] = {};
  for (int k0 = 0; k0 < K; k0 += REG_BK) {
    for (int p = 0; p < 4; ++p) {
      const int rr = t / REG_BK + p * 16, kk = t % REG_BK;
      As[rr][kk] = row0 + rr < M && k0 + kk < K ? A[(row0 + rr) * K + k0 + kk] : 0.0f;
      const int kb = t / REG_BN + p * 4, cc = t % REG_BN;
      Bs[kb][cc] = k0 + kb < K && col0 + cc < N ? B[(k0 + kb) * N + col0 + cc] : 0.0f;
    }
    __syncthreads();
    // Output by output: every product reads both factors from shared memory.
#pragma unroll
    for (int i = 0; i < REG_TM; ++i)
#pragma unroll
      for (int j = 0; j < REG_TN; ++j)
#pragma unroll
        for (int k = 0; k < REG_BK; ++k)
          acc[i][j] += *static_cast<volatile float*>(&As[ty + i * kApart][k]) *
                       *static_cast<volatile float*>(&Bs[k][tx + j * kApart]);
    __syncthreads();
  }
  for (int i = 0; i < REG_TM; ++i)
    for (int j = 0; j < REG_TN; ++j) {
      const int r = row0 + ty + i * kApart, c = col0 + tx + j * kApart;
      if (r < M && c < N) C[r * N + c] = acc[i][j];
    }
}

UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
