// Wrong on purpose (slow, correct): the near miss of the whole step: a 128x128 block tile, 8x8
// outputs per thread in registers and double buffering, but scalar global loads, A's slice as in
// global memory (As[m][k]: a thread's 8 values of A read one by one down a column) and each
// thread's 8 rows and 8 columns consecutive (no warp tiling): 16 scalar shared loads per 64
// multiply-adds, with bank conflicts.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)
UNUSED_KERNEL(sgemm_shared_tiles)
UNUSED_KERNEL(sgemm_register_tiles)

__global__ void __launch_bounds__(WARP_THREADS, 2)
    sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C, int M, int N, int K) {
  wrong::block_tile</*kVector=*/false, /*kTransposeA=*/false, /*kWarpLayout=*/false>(A, B, C, M, N,
                                                                                     K);
}

}  // namespace matmul_tiled
