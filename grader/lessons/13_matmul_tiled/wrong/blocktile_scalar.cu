// Wrong on purpose (slow, correct): the near miss of the whole step: a 128x128 block tile, 8x8
// outputs per thread in registers and double buffering, but scalar global loads, A's slice as in
// global memory (As[m][k]: a thread's 8 values of A read one by one down a column) and each
// thread's 8 rows and 8 columns consecutive (no warp tiling): 16 scalar shared loads per 64
// multiply-adds, with bank conflicts.
#include "common.cuh"

namespace matmul_tiled {

BLOCK_TILE_SUBMISSION(/*kVector=*/false, /*kTransposeA=*/false, /*kWarpLayout=*/false)

}  // namespace matmul_tiled
