// Wrong on purpose (a cheat the timing must defeat): the unpadded tile submitted for tiled_padded,
// about half the ceiling, plus a memo. It remembers the input pointer and four sampled elements;
// when a launch sees them again, it skips the tiles of the input's top half and leaves their part
// of the output as the last launch wrote it. Timed on one unchanged input, it would have looked
// nearly twice as fast, over the gate. Every timed launch now gets inputs of its own, so the memo
// never hits: below the gate.
#include "unused_kernels.cuh"

namespace transpose {
UNUSED_EXTENSION_KERNELS
UNUSED_TRANSPOSE_KERNEL(transpose_naive)
UNUSED_TRANSPOSE_KERNEL(transpose_tiled)

namespace {
__device__ const float* memo_in = nullptr;
__device__ float memo_sample[4];
__device__ unsigned done_blocks = 0;

__device__ long long sample_index(int k, int rows, int cols) {
  return (static_cast<long long>(rows) * cols - 1) * k / 3;
}
}  // namespace

__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out,
                                       int rows, int cols) {
  __shared__ bool hit;
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    bool same = memo_in == in;
    for (int k = 0; k < 4 && same; ++k) same = memo_sample[k] == in[sample_index(k, rows, cols)];
    hit = same;
  }
  __syncthreads();
  if (!(hit && blockIdx.y < gridDim.y / 2)) {
    __shared__ float tile[TILE_DIM][TILE_DIM];  // unpadded: 32-way conflicts on the column reads
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
      if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
  if (threadIdx.x != 0 || threadIdx.y != 0) return;
  __threadfence();
  const unsigned blocks = gridDim.x * gridDim.y;
  if (atomicAdd(&done_blocks, 1u) == blocks - 1) {  // the last block keeps the memo
    memo_in = in;
    for (int k = 0; k < 4; ++k) memo_sample[k] = in[sample_index(k, rows, cols)];
    done_blocks = 0;
  }
}
}  // namespace transpose
