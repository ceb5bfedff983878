// A probe for the next GPU call (not in the catalogue yet): the 32x32 tiled kernel with the naive
// kernel's early return, `if (r >= M || c >= N) return;` before the tile loop. Threads outside C
// then neither load their elements of As and Bs (rows of Bs and columns of As that threads inside
// C read) nor reach the barriers. Expected: wrong C on shapes that are not multiples of 32 (the
// stale tile elements), and compute-sanitizer synccheck or racecheck findings; to be measured.
// To try it: copy into grader/lessons/13_matmul_tiled/wrong/ and add a wrong_kernels entry
// (step shared_tiles) to lessons/course.json, then `grader dev check --lesson 13_matmul_tiled
// --only early_return`.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)

__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;
  if (r >= M || c >= N) return;  // the naive kernel's guard, wrong here
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = k0 + tx < K ? A[r * K + k0 + tx] : 0.0f;
    Bs[ty][tx] = k0 + ty < K ? B[(k0 + ty) * N + c] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[r * N + c] = acc;
}

UNUSED_KERNEL(sgemm_register_tiles)
UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
