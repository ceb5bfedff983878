// Wrong on purpose (slow, correct): the solution's layout and float4 loads, but A's slice kept as
// in global memory (As[m][k], not transposed): each thread reads its 8 values of A down a column of
// the tile, 8 scalar loads per k (the warp's 4 rows, 32 floats apart, share a bank: 4-way
// conflicts) instead of two float4 loads.
#include "common.cuh"

namespace matmul_tiled {

BLOCK_TILE_SUBMISSION(/*kVector=*/true, /*kTransposeA=*/false, /*kWarpLayout=*/true)

}  // namespace matmul_tiled
