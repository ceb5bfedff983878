// Wrong on purpose: the 32x32 tiled kernel with no bounds check at all. On a 17 x 17 C the block's
// 1024 threads store C[r * 17 + c] for r, c < 32: up to element 558 of a 289-element C; the loads
// read past the ends of A and B too.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)

__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  wrong::tiled</*kGuards=*/false, /*kSecondSync=*/true>(A, B, C, M, N, K);
}

UNUSED_KERNEL(sgemm_register_tiles)
UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
