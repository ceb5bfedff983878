// Wrong on purpose (no shared memory): the naive dot product under the shared_tiles launcher, one
// element per thread of a 32 x 32 block, A and B read from global memory (through L1). Correct;
// on our anchors within 5 points of cuBLAS of the 32x32 tiles, so the step requires the tiles.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)

__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  const int r = blockIdx.y * TILE + threadIdx.y, c = blockIdx.x * TILE + threadIdx.x;
  if (r >= M || c >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
  C[r * N + c] = acc;
}

UNUSED_KERNEL(sgemm_register_tiles)
UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
