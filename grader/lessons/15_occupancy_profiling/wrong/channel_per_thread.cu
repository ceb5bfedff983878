// Wrong on purpose (right, 40 registers, but slow): the lesson's first solution. One output
// channel per thread: few registers, but the 8 lanes of a pixel each load the pixel's 32 bytes
// and a row of M, eight times the load instructions of a pixel per lane. 58.8% of the copy on our
// H200, where the register-capped kernel ran at 92.1% (calibration.md).
#include "unused_kernels.cuh"

namespace occupancy_profiling {
CHANNEL_PER_THREAD_MIX_CHANNELS
SOLUTION_CHOOSE_BLOCK_SIZE
}  // namespace occupancy_profiling
