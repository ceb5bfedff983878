// Wrong on purpose: blocks_for rounds down. With N = 1000 and 32 threads per block along a row the
// grid has 31 blocks, 992 columns: columns 992 .. 999 of C are never written; with N = 17 it has
// 0 blocks and the launch is refused. The naive kernel itself is right.
#include "common.cuh"

namespace matmul_tiled {

int blocks_for(int extent, int per_block) {
  return extent / per_block;
}

__global__ void sgemm_naive(const float* __restrict__ A, const float* __restrict__ B,
                            float* __restrict__ C, int M, int N, int K) {
  const int c = blockIdx.x * NAIVE_BLOCK_X + threadIdx.x;
  const int r = blockIdx.y * NAIVE_BLOCK_Y + threadIdx.y;
  if (r >= M || c >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
  C[r * N + c] = acc;
}

UNUSED_KERNEL(sgemm_shared_tiles)
UNUSED_KERNEL(sgemm_register_tiles)
UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
