// Wrong on purpose (spills): the README's first mix_channels under __launch_bounds__(256, 4),
// which asks for 4 resident blocks of 256 and so at most 64 registers per thread. The kernel's
// live values do not fit: the compiler keeps the cap by spilling to local memory (and re-loading
// entries of M), which cudaFuncGetAttributes reports as localSizeBytes > 0.
#include "unused_kernels.cuh"

namespace occupancy_profiling {
MATRIX_IN_REGISTERS_KERNEL(mix_channels, __launch_bounds__(MIX_BLOCK_THREADS, 4))
SOLUTION_CHOOSE_BLOCK_SIZE
}  // namespace occupancy_profiling
