// Lesson 15_occupancy_profiling: the kernel and the host code you write (see
// lessons/15_occupancy_profiling/README.md). Grade with ./build/grader 15.
#include "occupancy.cuh"

namespace occupancy_profiling {

// Step registers: out = M v for every pixel v of 8 channels. The README's first version (one
// thread per pixel, all of M held in registers) is right but uses 96 registers per thread, which
// caps occupancy at 2 blocks of 256 per SM. Write one that needs at most kMaxRegisters registers
// and spills none (check with -Xptxas -v, README section 2).
__global__ void mix_channels(const float* __restrict__ in, float* __restrict__ out,
                             const float* __restrict__ m, long long n) {
  // TODO: walk the work with a grid-stride loop; cut it so that a thread holds few values.
}

// Step block_size: the block size for segment_scan on this GPU (README section 3).
cudaError_t choose_block_size(int* block_threads) {
  // TODO: cudaOccupancyMaxPotentialBlockSizeVariableSMem with segment_smem_bytes(), or your own
  // reasoning from the device's limits.
  *block_threads = 0;
  return cudaErrorNotYetImplemented;
}

}  // namespace occupancy_profiling
