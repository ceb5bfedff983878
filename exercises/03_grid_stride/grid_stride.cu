// Lesson 03_grid_stride: write the body of saxpy below, then run `./build/grader 03_grid_stride`.
//
// y = a * x + y, in place, for n elements. The grader launches your kernel with blocks of 256
// threads under grids of many sizes: one block, three blocks, 4 blocks per SM of your GPU, and one
// thread per element. So the kernel may not assume that there is one thread per element: with
// fewer threads than elements each thread must handle several, with more it must handle none.
// The launch is in lessons/03_grid_stride/launch.cu and is not yours to change; the header
// lessons/03_grid_stride/grid_stride.cuh and README.md document the rest.
//
//   step grid_stride: correct under every grid; timed on the 4-blocks-per-SM grid
//   step large:       n = 2^31 + 17 elements, past the largest int (2^31 - 1)
#include "grid_stride.cuh"

namespace grid_stride {

__global__ void saxpy(long long n, float a, const float* __restrict__ x, float* __restrict__ y) {
  // TODO(grid_stride): start at this thread's global index and step through the array by the
  // number of threads in the whole grid (blockDim.x * gridDim.x) while the index is below n;
  // at each index i, set y[i] = a * x[i] + y[i]. Every element exactly once.
  // TODO(large): hold the index and the stride in 64-bit integers (long long), and widen before
  // you multiply: blockIdx.x * blockDim.x is computed in 32 bits.
}

}  // namespace grid_stride
