// Lesson 09_vectorized_memory, completed. Each kernel with what it fixes and what is still wrong.
#include <cstdint>

#include "vectorized_memory.cuh"

namespace vectorized_memory {

// Fixes the scalar copy's 4 bytes per load: the body moves as float4 (one 16-byte load and store
// per vector, VECTORS_PER_THREAD of them in flight per thread), and a scalar head and tail make it
// right for a view that starts or ends anywhere. Nothing left at this geometry: the body runs at
// the speed of cudaMemcpy; the head and tail are at most 3 + 3 elements.
__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  // Floats from the last 16-byte boundary at or below `in` (out has the same, by precondition).
  const int past_boundary = static_cast<int>(reinterpret_cast<std::uintptr_t>(in) % 16 / 4);
  const int head = min((4 - past_boundary) % 4, n);  // floats before the first boundary
  const int body = (n - head) / 4;                   // whole float4 vectors after it
  const int tail_start = head + 4 * body;            // 0..3 floats left at the end

  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < head) out[t] = a * in[t];
  if (t < n - tail_start) out[tail_start + t] = a * in[tail_start + t];

  // in + head and out + head are 16-byte aligned: the body may be read as float4.
  const float4* in4 = reinterpret_cast<const float4*>(in + head);
  float4* out4 = reinterpret_cast<float4*>(out + head);
  const int first = blockIdx.x * VIEW_THREADS * VECTORS_PER_THREAD + threadIdx.x;
  float4 v[VECTORS_PER_THREAD];
#pragma unroll
  for (int k = 0; k < VECTORS_PER_THREAD; ++k) {  // every load first: 16 B each in flight
    const int j = first + k * VIEW_THREADS;
    if (j < body) v[k] = in4[j];
  }
#pragma unroll
  for (int k = 0; k < VECTORS_PER_THREAD; ++k) {
    const int j = first + k * VIEW_THREADS;
    if (j < body) out4[j] = make_float4(a * v[k].x, a * v[k].y, a * v[k].z, a * v[k].w);
  }
}

// Fixes lesson 07's padded 32x32 transpose, which moves 4 bytes per access and 16 bytes per
// thread: here every global access is a float4 and a thread moves 64 bytes each way. The thread
// transposes its 4x4 block in registers, so the turn in shared memory is at float4 granularity,
// and an XOR swizzle (float4 column ^ (row / 4) % 8) keeps both the float4 stores into the tile
// and the float4 reads out of it free of bank conflicts. Nothing left to fix at this geometry.
__global__ void transpose_64(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols) {
  // The tile as the output sees it: 64 output rows (input columns) of 16 float4, each float4
  // four consecutive output columns (input rows). Element (row, q) is stored at column
  // q ^ ((row / 4) % 8).
  __shared__ float4 tile[TILE][TILE / 4];
  const int q = threadIdx.x, g = threadIdx.y;  // 0..15 each
  const int r0 = blockIdx.y * TILE, c0 = blockIdx.x * TILE;

  // Load the 4x4 block at input rows r0 + 4g .. + 3, columns c0 + 4q .. + 3: four float4 loads,
  // lanes 0-15 of a warp reading 256 contiguous bytes of one row.
  const int r = r0 + 4 * g, c = c0 + 4 * q;
  if (r < rows && c < cols) {  // rows, cols multiples of 4: the block is wholly in or out
    float4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      v[k] = *reinterpret_cast<const float4*>(&in[static_cast<std::size_t>(r + k) * cols + c]);
    // Column k of the block is output row 4q + k, output columns 4g .. 4g + 3.
    const float4 w[4] = {
        make_float4(v[0].x, v[1].x, v[2].x, v[3].x), make_float4(v[0].y, v[1].y, v[2].y, v[3].y),
        make_float4(v[0].z, v[1].z, v[2].z, v[3].z), make_float4(v[0].w, v[1].w, v[2].w, v[3].w)};
#pragma unroll
    for (int k = 0; k < 4; ++k) tile[4 * q + k][g ^ (q % 8)] = w[k];  // (4q + k) / 4 = q
  }
  __syncthreads();

  // Store: thread (q, g) writes float4 q of output rows g, g + 16, g + 32, g + 48 of the tile;
  // lanes 0-15 write 256 contiguous bytes of one output row.
#pragma unroll
  for (int p = 0; p < 4; ++p) {
    const int row = g + 16 * p;
    const int orow = c0 + row, ocol = r0 + 4 * q;
    if (orow < cols && ocol < rows)
      *reinterpret_cast<float4*>(&out[static_cast<std::size_t>(orow) * rows + ocol]) =
          tile[row][q ^ ((row / 4) % 8)];
  }
}

}  // namespace vectorized_memory
