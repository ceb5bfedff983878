// Wrong on purpose (slow, correct): the solution's layout and float4 loads, but A's slice kept as
// in global memory (As[m][k], not transposed): each thread reads its 8 values of A down a column of
// the tile, 8 scalar loads per k (4 lanes' rows 8 floats apart share a bank) instead of two float4
// loads.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)
UNUSED_KERNEL(sgemm_shared_tiles)
UNUSED_KERNEL(sgemm_register_tiles)

__global__ void __launch_bounds__(WARP_THREADS, 2)
    sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C, int M, int N, int K) {
  wrong::block_tile</*kVector=*/true, /*kTransposeA=*/false, /*kWarpLayout=*/true>(A, B, C, M, N,
                                                                                   K);
}

}  // namespace matmul_tiled
