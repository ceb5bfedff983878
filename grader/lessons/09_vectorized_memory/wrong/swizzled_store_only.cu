// Wrong on purpose: the float4 column is swizzled when the tile is stored but not when it is
// read back, so output row 'row' of the tile takes its float4 q from logical column
// q ^ ((row / 4) % 8): right only in rows 0-3, 32-35 of each tile (where the XOR is 0).
#include "unused_kernels.cuh"

namespace vectorized_memory {
UNUSED_SCALE_VIEW

__global__ void transpose_64(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols) {
  __shared__ float4 tile[TILE][TILE / 4];
  const int q = threadIdx.x, g = threadIdx.y;
  const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;

  const int r = r0 + 4 * g, c = c0 + 4 * q;
  if (r < rows && c < cols) {
    float4 v[4];
    for (int k = 0; k < 4; ++k)
      v[k] = *reinterpret_cast<const float4*>(&in[static_cast<std::size_t>(r + k) * cols + c]);
    const float4 w[4] = {
        make_float4(v[0].x, v[1].x, v[2].x, v[3].x), make_float4(v[0].y, v[1].y, v[2].y, v[3].y),
        make_float4(v[0].z, v[1].z, v[2].z, v[3].z), make_float4(v[0].w, v[1].w, v[2].w, v[3].w)};
    for (int k = 0; k < 4; ++k) tile[4 * q + k][g ^ (q % 8)] = w[k];
  }
  __syncthreads();
  for (int p = 0; p < 4; ++p) {
    const int row = g + 16 * p;
    const int orow = c0 + row, ocol = r0 + 4 * q;
    if (orow < cols && ocol < rows)
      *reinterpret_cast<float4*>(&out[static_cast<std::size_t>(orow) * rows + ocol]) = tile[row][q];
  }
}
}  // namespace vectorized_memory
