// Lesson 07_transpose, completed. The ladder, each rung with what it fixes and what is still wrong.
#include "transpose.cuh"

namespace transpose {

// Reads coalesced (a warp reads 32 consecutive floats of one input row); writes strided (the same
// warp writes 32 floats `rows` apart, one 32-byte sector each): about 15% of the copy ceiling.
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  const int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < cols && y + j < rows) out[x * rows + (y + j)] = in[(y + j) * cols + x];
  }
}

// Both global accesses coalesced; the turn happens in shared memory. Still wrong: reading
// tile[threadIdx.x][...] walks down a column of a 32-float-wide array, so all 32 lanes hit one
// bank and the read is replayed 32 times (about half the ceiling).
__global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // output column = input row
  y = blockIdx.x * TILE_DIM + threadIdx.y;  // output row = input column
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// One padding column: element (r, c) sits in bank (r * 33 + c) % 32, so a column read touches 32
// different banks. Nothing left to fix at this geometry: within a few percent of the copy ceiling.
__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

}  // namespace transpose
