// Wrong on purpose (slow, not incorrect): the nearest miss of step transpose_64, the 64x64 tile
// with 8-byte global accesses instead of 16-byte ones. The 256 threads are seen as 8 warps; on each
// of 8 passes a warp loads one 64-float row of the tile as 32 float2 (256 contiguous bytes, all
// 8 loads of a thread issued before any use), and the tile turns in a padded float[64][65] array;
// on the way out a warp stores one 64-float output row as 32 float2. Both global sides coalesced,
// 64 bytes moved per thread each way like the solution, but in 8-byte pieces: twice the memory
// instructions of the float4 kernel, and no 4x4 turn in registers. The shared accesses are 2-way
// conflicts (lanes k and k + 16); the calibration probe found the tile's layout does not limit a
// 64x64 transpose at this size (an unswizzled float4 tile with 8-way conflicts: 94.9% of
// cudaMemcpyAsync, the solution 94.6%), and a float2 64x64 kernel with 512 threads reached 94.8%.
// The gate must sit above this kernel for the step to grade float4.
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_SCALE_VIEW

__global__ void transpose_64(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols) {
  constexpr int kPasses = TILE * TILE / 2 / (TILE_THREADS * TILE_THREADS);  // 8 float2 each
  constexpr int kRowsPerPass = TILE_THREADS * TILE_THREADS / (TILE / 2);    // 8 rows of 32 float2
  __shared__ float tile[TILE][TILE + 1];  // tile[input column][input row]
  const int t = threadIdx.y * blockDim.x + threadIdx.x;
  const int k = t % (TILE / 2), row_in_pass = t / (TILE / 2);
  const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;

  // rows and cols are even (multiples of 4), so a float2 at an even column lies wholly inside or
  // wholly outside the matrix, and is 8-byte aligned.
  float2 v[kPasses];
#pragma unroll
  for (int p = 0; p < kPasses; ++p) {
    const int r = r0 + p * kRowsPerPass + row_in_pass, c = c0 + 2 * k;
    if (r < rows && c < cols)
      v[p] = *reinterpret_cast<const float2*>(&in[static_cast<std::size_t>(r) * cols + c]);
  }
#pragma unroll
  for (int p = 0; p < kPasses; ++p) {
    const int tr = p * kRowsPerPass + row_in_pass;
    if (r0 + tr < rows && c0 + 2 * k < cols) {
      tile[2 * k][tr] = v[p].x;
      tile[2 * k + 1][tr] = v[p].y;
    }
  }
  __syncthreads();

#pragma unroll
  for (int p = 0; p < kPasses; ++p) {
    const int oc = p * kRowsPerPass + row_in_pass;  // output row c0 + oc = input column
    const int orow = c0 + oc, ocol = r0 + 2 * k;
    if (orow < cols && ocol < rows)
      *reinterpret_cast<float2*>(&out[static_cast<std::size_t>(orow) * rows + ocol]) =
          make_float2(tile[oc][2 * k], tile[oc][2 * k + 1]);
  }
}
}  // namespace vectorized_memory
