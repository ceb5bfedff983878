// Wrong on purpose: empty kernel bodies. Every output element must be reported as never written.
#include "unused_kernels.cuh"

namespace coalescing {
UNUSED_COPY_FLOAT4
UNUSED_SCALE_CHANNELS
UNUSED_SCALE_MATRIX
UNUSED_UPDATE_SOA
}  // namespace coalescing
