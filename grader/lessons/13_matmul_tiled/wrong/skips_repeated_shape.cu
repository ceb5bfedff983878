// Wrong on purpose (a cheat the timing must defeat): a plain dot product per output, right on every
// launch whose shape (M, N, K) differs from the last complete one; on the same shape again it
// returns at once. Every correctness case has a shape of its own and passes; the timed launches
// repeat one shape on fresh inputs and poisoned outputs, so they leave C unwritten, and the check
// of the timed outputs must say so.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)
UNUSED_KERNEL(sgemm_shared_tiles)

namespace {
__device__ int seen_m = -1, seen_n = -1, seen_k = -1;  // the last complete launch's shape
__device__ unsigned blocks_done = 0;
}  // namespace

__global__ void sgemm_register_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                     float* __restrict__ C, int M, int N, int K) {
  if (seen_m == M && seen_n == N && seen_k == K) return;  // "nothing can have changed"
  // Right and slow: each thread's 4x4 outputs, 16 apart as the launch's geometry places them, each
  // a dot product read straight from global memory.
  constexpr int kRowsApart = REG_BM / REG_TM, kColsApart = REG_BN / REG_TN;  // 16 and 16
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int i = 0; i < REG_TM; ++i)
    for (int j = 0; j < REG_TN; ++j) {
      const int r = blockIdx.y * REG_BM + ty + i * kRowsApart,
                c = blockIdx.x * REG_BN + tx + j * kColsApart;
      if (r >= M || c >= N) continue;
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
      C[r * N + c] = acc;
    }
  // The last block to finish records the shape, so that no block of this launch skips.
  __syncthreads();
  if (tx != 0 || ty != 0) return;
  __threadfence();
  if (atomicAdd(&blocks_done, 1u) == gridDim.x * gridDim.y - 1) {
    seen_m = M;
    seen_n = N;
    seen_k = K;
    blocks_done = 0;
  }
}

UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
