// Wrong on purpose (right, but register-capped): the README's first mix_channels. One thread per
// pixel holds all 64 entries of M in registers for the whole grid-stride loop: 96 registers per
// thread on sm_90, 2 blocks of 256 per SM, 25% occupancy.
#include "unused_kernels.cuh"

namespace occupancy_profiling {
MATRIX_IN_REGISTERS_KERNEL(mix_channels, )
SOLUTION_CHOOSE_BLOCK_SIZE
}  // namespace occupancy_profiling
