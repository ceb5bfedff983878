// Wrong on purpose: empty kernel bodies. Every output element keeps the poison it was given
// before the launch and must be reported as never written.
#include "unused_kernels.cuh"

namespace bank_conflicts {
UNUSED_FLOAT_KERNEL(tile_product_conflicted)
UNUSED_FLOAT_KERNEL(tile_product_padded)
UNUSED_FLOAT_KERNEL(tile_product_swizzled)
UNUSED_DOUBLE_KERNEL(tile_product_padded_64)
}  // namespace bank_conflicts
