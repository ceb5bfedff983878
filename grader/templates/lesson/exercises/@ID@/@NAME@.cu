// Lesson @ID@: write the kernel body below, then run `./build/grader @ID@`.
// The launch is in lessons/@ID@/launch.cu and is not yours to change; shapes and layout are in
// lessons/@ID@/@NAME@.cuh and README.md.
#include "@NAME@.cuh"

namespace @NAME@ {

__global__ void copy(const float* __restrict__ in, float* __restrict__ out, int n) {
  // TODO(copy): one element per thread: the thread's global index i, then out[i] = in[i] when
  // i < n (the last block is partial).
}

}  // namespace @NAME@
