// Lesson 02_vector_add: write the kernel `add` (step `kernel`) and the host function `vector_add`
// (step `host`) below, then run `./build/grader 02_vector_add`.
//
// The kernel is launched by the course (launch_add in lessons/02_vector_add/launch.cu): 256
// threads per block, ceil(n / 256) blocks, one element per thread. The host function is yours
// from start to end: it receives HOST arrays. lessons/02_vector_add/vector_add.cuh documents both,
// and README.md explains every call you need.
#include "vector_add.cuh"

namespace vector_add {

__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int n) {
  // TODO(kernel): compute this thread's element index i from blockIdx.x, blockDim.x and
  // threadIdx.x. The last block may have threads past the end of the arrays: only when i < n,
  // write c[i] = a[i] + b[i].
}

cudaError_t vector_add(const float* a, const float* b, float* c, int n) {
  // TODO(host): in this order, stopping at the first error and remembering it:
  //   1. n < 0: return cudaErrorInvalidValue; n == 0: return cudaSuccess (nothing to do).
  //   2. cudaMalloc three device arrays of n floats (start with pointers set to nullptr).
  //   3. cudaMemcpy a and b to the device (cudaMemcpyHostToDevice).
  //   4. launch_add(d_a, d_b, d_c, n): its return value is the launch error.
  //   5. cudaDeviceSynchronize(): its return value is the kernel's error.
  //   6. cudaMemcpy c back (cudaMemcpyDeviceToHost).
  //   7. cudaFree all three arrays on EVERY path, the error paths too, and return the first error.
  (void)a, (void)b, (void)c, (void)n;
  return cudaErrorNotYetImplemented;  // "not written yet": every test of step `host` fails
}

}  // namespace vector_add
