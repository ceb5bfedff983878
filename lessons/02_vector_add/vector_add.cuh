/// @file vector_add.cuh
/// @brief Lesson 02_vector_add: the kernel and the host function a student writes, and the
/// launchers the course owns.
///
/// The task is c[i] = a[i] + b[i] for i < n, on arrays of `float`. Two steps:
///
/// - step `kernel`: the kernel `add`, one element per thread, with the bounds check that the last,
///   partial block needs. The course launches it (launch_add) and times it against its copy rung
///   (launch_copy), a kernel with the same grid and bounds check that moves the same bytes.
/// - step `host`: the host function `vector_add`, which takes arrays in HOST memory and does the
///   whole round trip: allocate device memory, copy a and b in, launch through launch_add, check
///   the launch and then the kernel, copy c out, free everything, and return the first error.
///
/// Units: element counts and indices are `int`; sizes in bytes are `size_t`. Arrays that are read
/// and arrays that are written never overlap.
#pragma once

#include <cuda_runtime.h>

/// Lesson 02_vector_add: kernel and host function (student), launchers (course).
namespace vector_add {

/// Threads per block of every launch in this lesson, along threadIdx.x.
constexpr int BLOCK_THREADS = 256;

/// Largest n the launchers accept: 2^31 - 256. With ceil(n / 256) blocks of 256 threads the last
/// thread's global index is then at most 2^31 - 2, so `blockIdx.x * blockDim.x + threadIdx.x`
/// fits in an `int` (lesson 03 looks at what happens past that).
constexpr int MAX_N = 2147483392;

// ---- The kernel the student writes (exercises/02_vector_add/vector_add.cu) ----

/// Step `kernel`: c[i] = a[i] + b[i] for every i < n.
///
/// Launch (launch_add): BLOCK_THREADS threads per block, ceil(n / BLOCK_THREADS) blocks, one
/// element per thread: the thread whose global index blockIdx.x * blockDim.x + threadIdx.x is i
/// owns element i. The grid has up to BLOCK_THREADS - 1 threads more than there are elements
/// whenever n is not a multiple of BLOCK_THREADS: those threads must not touch memory.
/// @param a n floats, device memory, read only
/// @param b n floats, device memory, read only
/// @param c n floats, device memory, written; does not overlap a or b
/// @param n number of elements, 1 .. MAX_N
__global__ void add(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                    int n);

// ---- The host function the student writes (exercises/02_vector_add/vector_add.cu) ----

/// Step `host`: c[i] = a[i] + b[i] for every i < n, computed on the GPU, with all three arrays in
/// host memory. Allocates three device arrays of n floats (cudaMalloc), copies a and b to the
/// device (cudaMemcpy, host to device), launches `add` through launch_add, checks the launch's
/// error and then the kernel's (cudaDeviceSynchronize), copies c back (device to host), and
/// frees the device arrays (cudaFree) on every path, the error paths included. Synchronous: when
/// it returns, c holds the result or the call failed.
/// @param a n floats, host memory, read only
/// @param b n floats, host memory, read only
/// @param c n floats, host memory, written (when the result is cudaSuccess)
/// @param n number of elements, >= 0; with n = 0 nothing is allocated, copied or launched
/// @return cudaSuccess; cudaErrorInvalidValue when n < 0 (nothing is touched); otherwise the
///         first error any CUDA call returned (a failed allocation, copy or launch, or the
///         kernel's own error). After an error the contents of c are unspecified, but no device
///         memory stays allocated unless the error is a sticky one that ends the CUDA context.
cudaError_t vector_add(const float* a, const float* b, float* c, int n);

// ---- Launchers the course owns (lessons/02_vector_add/launch.cu) ----
// Both are asynchronous on `stream` and never synchronize. Each returns cudaSuccess (n = 0:
// nothing is launched), cudaErrorInvalidValue when n < 0 or n > MAX_N (nothing is launched), or
// the launch error that cudaGetLastError() reported right after the launch. A launcher's call to
// cudaGetLastError() also resets the runtime's last-error variable: use the value it returns.

/// Launches the student's `add` on `stream`: BLOCK_THREADS threads per block, ceil(n /
/// BLOCK_THREADS) blocks.
/// @param a      n floats, device memory
/// @param b      n floats, device memory
/// @param c      n floats, device memory
/// @param n      number of elements, 0 .. MAX_N
/// @param stream stream of the launch (0: the default stream)
cudaError_t launch_add(const float* a, const float* b, float* c, int n, cudaStream_t stream = 0);

/// Copy rung of step `kernel` (kernel `copy`): the same grid, block and bounds check as
/// launch_add, and the same bytes (it reads a[i] and b[i] and writes c[i]: 12 bytes per element),
/// but no floating-point add: c[i] gets the bits of a[i] XOR the bits of b[i]. The values are
/// meaningless; it exists to be timed. Parameters and errors as launch_add.
cudaError_t launch_copy(const float* a, const float* b, float* c, int n, cudaStream_t stream = 0);

// ---- For the hidden tests only: never call these from your code ----
// The hidden tests of step `host` make the course's launcher fail on purpose, to check that
// vector_add reports a failed launch and a failed kernel as errors, and still frees its memory.

/// What the next launch_add does instead of its normal launch.
enum class Fault {
  none,          ///< launch normally
  launch_error,  ///< launch `add` with 1025 threads per block, one more than the 1024 every GPU
                 ///< allows: the launch is refused, cudaGetLastError() reports an error (on our
                 ///< H200 with CUDA 13.0, cudaErrorInvalidValue; docs/measured/H200.md) and the
                 ///< kernel never runs (not sticky)
  kernel_error   ///< launch a kernel that waits about a millisecond, then executes a trap
                 ///< instruction: the launch succeeds, the kernel fails with
                 ///< cudaErrorLaunchFailure, a sticky error that ends the CUDA context
};

/// Makes the next launch_add (with 1 <= n <= MAX_N) do `fault` instead of its normal launch;
/// Fault::none cancels a fault still pending. Only that one call is affected.
void inject_fault(Fault fault);

/// True while a fault set by inject_fault() has not yet been used by a launch_add.
bool fault_pending();

/// What the last injected fault's launch_add returned (cudaSuccess before any): the error a
/// vector_add that checks the launch must return.
cudaError_t last_fault_result();

}  // namespace vector_add
