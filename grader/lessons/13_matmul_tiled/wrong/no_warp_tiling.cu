// Wrong on purpose (slow, correct): a near miss: float4 global loads and A's slice transposed, but
// thread t on the 8 consecutive rows (t / 16) * 8 and columns (t % 16) * 8: a warp's float4 reads
// of Bs span 256 bytes instead of 128, and its stores to C are 8 scalar rows.
#include "common.cuh"

namespace matmul_tiled {

BLOCK_TILE_SUBMISSION(/*kVector=*/true, /*kTransposeA=*/true, /*kWarpLayout=*/false)

}  // namespace matmul_tiled
