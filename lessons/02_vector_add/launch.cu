// The course-owned launches of lesson 02_vector_add: fixed geometry (256 threads per block, one
// element per thread), so the student's kernel is timed under the same grid and block as the copy
// rung it is compared with. Also the faults the hidden tests inject to check the student's error
// handling (see vector_add.cuh, "For the hidden tests only").
#include "vector_add.cuh"

namespace vector_add {

namespace {

// The copy rung of step `kernel`. A copy rung must move exactly the add's bytes under the same
// geometry: read a[i] and b[i], write c[i], 12 bytes per element. A plain copy c[i] = a[i] would
// move only 8 (b never read), and a load whose value is unused is removed by the compiler, so
// both inputs must reach the result. Combining their bits with XOR does that with one integer
// instruction in place of the add's one floating-point instruction: no arithmetic worth timing,
// both loads needed. The values are meaningless; only the traffic counts.
__global__ void copy(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __int_as_float(__float_as_int(a[i]) ^ __float_as_int(b[i]));
}

// Fault::kernel_error. It waits about a millisecond first (2 million SM clocks: 1 ms at 2 GHz), so
// the launch has long returned, and the launcher's cudaGetLastError() has reported success, before
// the kernel fails: the error can only reach the host through a later, synchronizing call. A trap
// ends the kernel with cudaErrorLaunchFailure, which is sticky.
__global__ void trap_after_a_while() {
  const long long start = clock64();
  while (clock64() - start < 2000000) {
  }
  __trap();
}

Fault g_pending = Fault::none;
cudaError_t g_last_fault_result = cudaSuccess;

cudaError_t check_n(int n) {
  return n < 0 || n > MAX_N ? cudaErrorInvalidValue : cudaSuccess;
}

// n <= MAX_N, so n + BLOCK_THREADS - 1 does not overflow.
unsigned blocks_for(int n) {
  return static_cast<unsigned>((n + BLOCK_THREADS - 1) / BLOCK_THREADS);
}

// Runs the pending fault in place of the normal launch of `add`; returns what launch_add returns.
cudaError_t launch_fault(Fault fault, const float* a, const float* b, float* c, int n,
                         cudaStream_t stream) {
  if (fault == Fault::launch_error) {
    add<<<blocks_for(n), 1025, 0, stream>>>(a, b, c, n);  // one thread more than allowed
  } else {
    trap_after_a_while<<<1, 1, 0, stream>>>();
  }
  g_last_fault_result = cudaGetLastError();
  return g_last_fault_result;
}

}  // namespace

cudaError_t launch_add(const float* a, const float* b, float* c, int n, cudaStream_t stream) {
  if (cudaError_t err = check_n(n); err != cudaSuccess) return err;
  if (n == 0) return cudaSuccess;  // a grid of 0 blocks would be an invalid configuration
  if (g_pending != Fault::none) {
    const Fault fault = g_pending;
    g_pending = Fault::none;
    return launch_fault(fault, a, b, c, n, stream);
  }
  add<<<blocks_for(n), BLOCK_THREADS, 0, stream>>>(a, b, c, n);
  return cudaGetLastError();
}

cudaError_t launch_copy(const float* a, const float* b, float* c, int n, cudaStream_t stream) {
  if (cudaError_t err = check_n(n); err != cudaSuccess) return err;
  if (n == 0) return cudaSuccess;
  copy<<<blocks_for(n), BLOCK_THREADS, 0, stream>>>(a, b, c, n);
  return cudaGetLastError();
}

void inject_fault(Fault fault) {
  g_pending = fault;
}

cudaError_t last_fault_result() {
  return g_last_fault_result;
}

bool fault_pending() {
  return g_pending != Fault::none;
}

}  // namespace vector_add
