// Lesson 09_vectorized_memory: write the two kernel bodies below, then run
// `./build/grader 09_vectorized_memory`.
//
// The launches are in lessons/09_vectorized_memory/launch.cu and are not yours to change; shapes,
// layouts, preconditions and steps are documented in
// lessons/09_vectorized_memory/vectorized_memory.cuh and README.md.
//
//   scale_view:   blocks of VIEW_THREADS (256) threads; block b owns the body's float4 vectors
//                 b * 256 * VECTORS_PER_THREAD + k * 256 + threadIdx.x. `in` and `out` may start
//                 anywhere (4-byte aligned), but both at the same offset from a 16-byte boundary.
//   transpose_64: grid ceil(cols / 64) x ceil(rows / 64), blocks of 16 x 16 threads; thread
//                 (x, y) moves the 4x4 block at tile rows 4y .. 4y + 3, tile columns 4x .. 4x + 3.
//                 rows and cols are multiples of 4; edge tiles may be partial.
#include <cstdint>

#include "vectorized_memory.cuh"

namespace vectorized_memory {

__global__ void scale_view(const float* __restrict__ in, float* __restrict__ out, int n, float a) {
  // TODO(scale_view): out[i] = a * in[i] for i < n. Find how many floats come before the first
  // 16-byte boundary of `in` (the head: 0..3, never more than n), copy them one by one, move the
  // body as float4 from in + head (VECTORS_PER_THREAD vectors per thread, all loads before the
  // stores), and copy the 0..3 floats after the last whole vector (the tail) one by one.
}

__global__ void transpose_64(const float* __restrict__ in, float* __restrict__ out, int rows,
                             int cols) {
  // TODO(transpose_64): load your 4x4 block with four float4 loads, transpose it in registers,
  // store its four rows as float4 into a __shared__ float4 tile[64][16] whose float4 column is
  // swizzled (XOR) so that neither the stores nor the reads conflict, __syncthreads(), then read
  // float4 threadIdx.x of output rows threadIdx.y + 16 * p and store each with one float4 store.
  // Skip 4x4 blocks outside the matrix.
}

}  // namespace vectorized_memory
