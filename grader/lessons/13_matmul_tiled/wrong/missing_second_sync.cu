// Wrong on purpose (a race): the 32x32 tiled kernel without the __syncthreads() after the
// multiply-adds. A warp that finishes its 32 multiply-adds first loads the next tiles into As and
// Bs while the other warps of the block still read the current ones. The 32 warps of a block often
// run close enough together for the result to come out right: compute-sanitizer racecheck must
// report the hazard.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)

__global__ void sgemm_shared_tiles(const float* __restrict__ A, const float* __restrict__ B,
                                   float* __restrict__ C, int M, int N, int K) {
  wrong::tiled</*kGuards=*/true, /*kSecondSync=*/false>(A, B, C, M, N, K);
}

UNUSED_KERNEL(sgemm_register_tiles)
UNUSED_KERNEL(sgemm_warp_tiles)

}  // namespace matmul_tiled
