// Wrong on purpose (slow, not incorrect): lesson 07's padded 32x32 transpose, run on the four
// 32x32 quarters of the block's 64x64 tile one after the other, with the 256 threads seen as 32 x
// 8 (each thread moves four floats per quarter, as in lesson 07). Every element is right, but
// every global access moves 4 bytes.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_SCALE_VIEW

__global__ void transpose_64(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols) {
  __shared__ float tile[32][33];
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  const int tx = tid % 32, ty = tid / 32;  // 32 x 8
  for (int quarter = 0; quarter < 4; ++quarter) {
    const int r0 = blockIdx.y * TILE + (quarter / 2) * 32;
    const int c0 = blockIdx.x * TILE + (quarter % 2) * 32;
    for (int j = 0; j < 32; j += 8)
      if (c0 + tx < cols && r0 + ty + j < rows)
        tile[ty + j][tx] = in[static_cast<std::size_t>(r0 + ty + j) * cols + c0 + tx];
    __syncthreads();
    for (int j = 0; j < 32; j += 8)
      if (r0 + tx < rows && c0 + ty + j < cols)
        out[static_cast<std::size_t>(c0 + ty + j) * rows + r0 + tx] = tile[tx][ty + j];
    __syncthreads();
  }
}
}  // namespace vectorized_memory
