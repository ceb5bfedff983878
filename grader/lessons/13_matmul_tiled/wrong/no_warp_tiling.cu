// Wrong on purpose (slow, correct): a near miss: float4 global loads and A's slice transposed, but
// thread t on the 8 consecutive rows (t / 16) * 8 and columns (t % 16) * 8: a warp's float4 reads
// of Bs span 256 bytes instead of 128, and its stores to C are 8 scalar rows.
#include "common.cuh"

namespace matmul_tiled {

RIGHT_BLOCKS_FOR
UNUSED_KERNEL(sgemm_naive)
UNUSED_KERNEL(sgemm_shared_tiles)
UNUSED_KERNEL(sgemm_register_tiles)

__global__ void __launch_bounds__(WARP_THREADS, 2)
    sgemm_warp_tiles(const float* __restrict__ A, const float* __restrict__ B,
                     float* __restrict__ C, int M, int N, int K) {
  wrong::block_tile</*kVector=*/true, /*kTransposeA=*/true, /*kWarpLayout=*/false>(A, B, C, M, N,
                                                                                   K);
}

}  // namespace matmul_tiled
