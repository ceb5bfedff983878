// Lesson 08_bank_conflicts, solution. Four kernels, one task (bank_conflicts.cuh): per 32 x 32
// tile position, C_tile = A_tile * B_tile^T, one output element per thread; thread (x, y) computes
// C_tile[y][x] = sum_k A_tile[y][k] * B_tile[x][k]. Only the shared layout of the B tile changes.
#include "bank_conflicts.cuh"

namespace bank_conflicts {

// conflicted: both tiles float[32][32]. Loads coalesced, A read as a broadcast; still wrong: lane x
// reads bs[x][k], word 32x + k, bank k for every lane: a 32-way conflict on every B read.
__global__ void tile_product_conflicted(const float* __restrict__ a, const float* __restrict__ b,
                                        float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0f;  // zero-fill: edge tiles act as full tiles
  bs[y][x] = inside ? b[row * cols + col] : 0.0f;
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}

// padded: B in float[32][33]. Fixes the column read (word 33x + k, bank (x + k) % 32: 32 banks);
// costs 32 floats of shared memory per tile and leaves rows 132 bytes apart (no 16-byte alignment).
__global__ void tile_product_padded(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM + 1];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0f;
  bs[y][x] = inside ? b[row * cols + col] : 0.0f;
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}

// swizzled: B in float[32][32], element (r, k) stored at column k ^ r. Fixes the column read
// without padding (lane x reads word 32x + (k ^ x), bank k ^ x: 32 banks) and keeps the store
// conflict-free (row y, lanes x: columns x ^ y, all different); costs an XOR per index, and both
// sides must agree on it.
__global__ void tile_product_swizzled(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, int rows, int cols) {
  __shared__ float as[TILE_DIM][TILE_DIM];
  __shared__ float bs[TILE_DIM][TILE_DIM];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0f;
  bs[y][x ^ y] = inside ? b[row * cols + col] : 0.0f;  // element (y, x) at column x ^ y
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k ^ x];  // element (x, k)
  if (inside) c[row * cols + col] = sum;
}

// padded_64: doubles, B in double[32][33]. A double covers two banks; a row of 33 doubles is 66
// words, so lane x's element (x, k) starts at bank (2x + 2k) % 32: the 16 lanes of each half-warp
// hit 16 different bank pairs, the minimum of 2 wavefronts for 256 bytes. In the 8-byte model,
// padding by 2 doubles gives bank (4x + 2k) % 32 (lanes 8 apart collide: 4 wavefronts) and by 4
// bank (8x + 2k) % 32 (8). That model is not what ran: nvcc 13.0 reads those tiles with 16-byte
// loads (docs/measured/compiler.md), and on our H200 Nsight Compute found [34] conflict-free and
// [36] at about 2 extra wavefronts per load, 67% of the rung (docs/measured/H200.md, lesson 08).
__global__ void tile_product_padded_64(const double* __restrict__ a, const double* __restrict__ b,
                                       double* __restrict__ c, int rows, int cols) {
  __shared__ double as[TILE_DIM][TILE_DIM];
  __shared__ double bs[TILE_DIM][TILE_DIM + 1];
  const int x = threadIdx.x, y = threadIdx.y;
  const int col = blockIdx.x * TILE_DIM + x, row = blockIdx.y * TILE_DIM + y;
  const bool inside = row < rows && col < cols;
  as[y][x] = inside ? a[row * cols + col] : 0.0;
  bs[y][x] = inside ? b[row * cols + col] : 0.0;
  __syncthreads();
  double sum = 0.0;
#pragma unroll
  for (int k = 0; k < TILE_DIM; ++k) sum += as[y][k] * bs[x][k];
  if (inside) c[row * cols + col] = sum;
}

}  // namespace bank_conflicts
