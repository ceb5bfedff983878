// Lesson 02_vector_add, completed: the kernel with its bounds check, and the host code around it
// with every CUDA call checked and every allocation freed on every path.
#include "vector_add.cuh"

namespace vector_add {

// One element per thread. The grid is rounded up to whole blocks of 256, so up to 255 threads of
// the last block have no element: the check keeps them from reading past a and b and writing past
// c. Consecutive lanes take consecutive elements, so each warp reads 128 contiguous bytes of a and
// of b and writes 128 contiguous bytes of c: the same traffic as the copy rung.
__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

namespace {

// The body of vector_add once the three device arrays exist: returns the first error. Kept apart
// so that the caller frees the arrays on every path with one piece of code.
cudaError_t add_on_device(const float* a, const float* b, float* c, int n, float* d_a, float* d_b,
                          float* d_c) {
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);  // n * 4 could overflow an int
  cudaError_t err = cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice);
  // A refused launch (bad configuration, no kernel image for this GPU, ...) is reported here and
  // only here: launch_add read it with cudaGetLastError(), which also reset it.
  if (err == cudaSuccess) err = launch_add(d_a, d_b, d_c, n);
  // The kernel runs asynchronously: its own errors (an illegal address, a trap) surface at the
  // next synchronizing call. Synchronizing here names the kernel as the culprit; the copy below
  // would also return the error, but as if the copy had failed.
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaMemcpy(c, d_c, bytes, cudaMemcpyDeviceToHost);
  return err;
}

}  // namespace

cudaError_t vector_add(const float* a, const float* b, float* c, int n) {
  if (n < 0) return cudaErrorInvalidValue;
  // Nothing to do, and nothing to ask of CUDA: what cudaMalloc does with 0 bytes is not
  // documented, and a launch of 0 blocks is refused (cudaErrorInvalidValue on our H200 with
  // CUDA 13.0, docs/measured/H200.md, lesson 02).
  if (n == 0) return cudaSuccess;
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);

  // Null until allocated: cudaFree(nullptr) does nothing, so the cleanup below is right whichever
  // allocation failed.
  float *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  cudaError_t err = cudaMalloc(&d_a, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_b, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_c, bytes);
  if (err == cudaSuccess) err = add_on_device(a, b, c, n, d_a, d_b, d_c);

  // Free on every path, and report the first error: a later cudaFree must not hide it.
  for (float* p : {d_a, d_b, d_c}) {
    const cudaError_t freed = cudaFree(p);
    if (err == cudaSuccess) err = freed;
  }
  return err;
}

}  // namespace vector_add
