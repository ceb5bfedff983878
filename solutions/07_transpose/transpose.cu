// Lesson 07_transpose, completed. The ladder, each rung with what it fixes and what is still wrong.
#include <cuda_pipeline.h>

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
// bank and the read is replayed 32 times (45% of the ceiling on our H200).
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

// ---- Optional extensions (Lab 02's extensions, PROFILE.md §5; README section 10) ----

namespace transpose {

// Extension: the tile arrives by cp.async (global -> shared without passing through registers),
// into one of two buffers, so the loads of tile k + 1 are in flight while tile k is stored. On
// sm_80+ this is asynchronous; older GPUs get a synchronous fallback from cuda_pipeline.h. Each
// copy is one float: a padded row is 132 bytes, so shared addresses are 4-byte aligned only, and
// 4-byte copies are cp.async.ca (the L2-only .cg form takes 16 bytes only). The wait covers only
// this thread's own copies, so the barrier after it is still needed.
__global__ void transpose_tiled_cp_async(const float* __restrict__ in, float* __restrict__ out,
                                         int rows, int cols) {
  __shared__ float tile[2][TILE_DIM][TILE_DIM + 1];
  const int tiles_y = (rows + TILE_DIM - 1) / TILE_DIM;
  const int x = blockIdx.x * TILE_DIM + threadIdx.x;
  auto load = [&](int buf, int tile_y) {
    const int y = tile_y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (x < cols && y + j < rows)
        __pipeline_memcpy_async(&tile[buf][threadIdx.y + j][threadIdx.x], &in[(y + j) * cols + x],
                                sizeof(float));
    __pipeline_commit();
  };
  int buf = 0;
  if (blockIdx.y < tiles_y) load(0, blockIdx.y);
  for (int t = blockIdx.y; t < tiles_y; t += gridDim.y) {
    const bool more = t + static_cast<int>(gridDim.y) < tiles_y;
    if (more) load(buf ^ 1, t + gridDim.y);
    if (more)
      __pipeline_wait_prior(1);  // this tile's group is done; the next may still fly
    else
      __pipeline_wait_prior(0);
    __syncthreads();
    const int ox = t * TILE_DIM + threadIdx.x;  // output column = input row
    const int oy = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (ox < rows && oy + j < cols)
        out[(oy + j) * rows + ox] = tile[buf][threadIdx.x][threadIdx.y + j];
    __syncthreads();  // everyone is done reading `buf` before it is refilled
    buf ^= 1;
  }
}

// Extension: the padded transpose with 1024 threads and one element each. Every thread does one
// load and one store, so fewer bytes are in flight per thread than with 32x8 threads and four
// elements each; with __launch_bounds__(1024, 1) at most 64 registers per thread (65,536 / 1,024)
// and, on an H200, 2 blocks per SM (2,048 threads). Compare its % of the ceiling with
// tiled_padded's.
__global__ void __launch_bounds__(1024, 1)
    transpose_padded_32x32(const float* __restrict__ in, float* __restrict__ out, int rows,
                           int cols) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

}  // namespace transpose
