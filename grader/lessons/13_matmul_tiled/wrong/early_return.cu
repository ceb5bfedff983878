// Wrong on purpose: the 32x32 tiled kernel with the naive kernel's guard, `if (r >= M || c >= N)
// return;`, before the tile loop. Threads outside C then neither load their elements of As and Bs,
// which threads inside C read, nor reach the barriers: C is wrong near the edges of every shape
// that is not a multiple of 32.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)

__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  wrong::tiled</*kGuards=*/true, /*kSecondSync=*/true, /*kEarlyReturn=*/true>(A, B, C, M, N, K);
}

UNUSED_KERNEL(sgemm_register_tiles)
UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
