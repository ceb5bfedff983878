#include "harness/cuda_check.hpp"

#include <fmt/format.h>

#include <chrono>
#include <thread>

namespace harness {

namespace {
std::string g_context_lost;
double g_kernel_timeout = 10.0;
}  // namespace

bool is_sticky(cudaError_t err) {
  switch (err) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorAssert:
    case cudaErrorIllegalInstruction:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

std::string likely_cause(cudaError_t err) {
  switch (err) {
    case cudaErrorIllegalAddress:
      return "a kernel read or wrote outside any allocation: check the bounds checks and the "
             "index arithmetic (rows vs cols, which side is strided)";
    case cudaErrorMisalignedAddress:
      return "an access was not aligned to its size, e.g. a float4 load from an address that is "
             "not a multiple of 16 bytes";
    case cudaErrorLaunchFailure:
      // The CUDA Runtime API documents it as "an exception occurred on the device while executing
      // a kernel", commonly an invalid device pointer or shared memory accessed out of bounds.
      // __trap() ends a kernel this way (so do a device-side C++ exception and
      // cuda::std::terminate(), which become __trap()), and compute-sanitizer memcheck fails a
      // launch that made bad accesses the same way, after reporting each of them.
      return "the kernel stopped with an exception on the device: a __trap(), a failed assert() "
             "(some drivers report it this way), an invalid device pointer or a shared-memory "
             "index out of bounds; under compute-sanitizer, memcheck failing a launch that made "
             "bad accesses (its report in the test log names the kernel and the addresses)";
    case cudaErrorAssert:
      return "a device-side assert() in a kernel failed; its message (file, line, block and "
             "thread) is in the test process's output, the log the grader keeps under "
             "grader-runs/ in the build folder";
    case cudaErrorLaunchOutOfResources:
      return "the block asks for more registers or shared memory than one SM has";
    case cudaErrorInvalidConfiguration:
      return "the launch geometry is invalid (too many threads per block, or a zero dimension)";
    default:
      return "";
  }
}

void mark_context_lost(const std::string& reason) {
  if (g_context_lost.empty()) g_context_lost = reason;
}

const std::string& context_lost() {
  return g_context_lost;
}

void set_kernel_timeout(double seconds) {
  g_kernel_timeout = seconds;
}
double kernel_timeout() {
  return g_kernel_timeout;
}

void check(cudaError_t err, const std::string& what) {
  if (err == cudaSuccess) return;
  const bool sticky = is_sticky(err);
  std::string msg =
      fmt::format("{}: {} ({})", what, cudaGetErrorName(err), cudaGetErrorString(err));
  if (std::string cause = likely_cause(err); !cause.empty()) msg += ". Likely cause: " + cause;
  if (sticky) {
    msg +=
        ". This error ends the CUDA context: the grader reruns the remaining tests in a fresh "
        "process";
    mark_context_lost(msg);
  }
  throw CudaError(msg, err, sticky);
}

void wait(cudaStream_t stream, const std::string& what, double timeout_seconds) {
  if (timeout_seconds <= 0) timeout_seconds = g_kernel_timeout;
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    const cudaError_t err = cudaStreamQuery(stream);
    if (err != cudaErrorNotReady) {
      check(err, what);
      return;
    }
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeout_seconds) {
      const std::string msg = fmt::format(
          "{}: the kernel did not finish within {:.0f} s. Likely cause: a loop that never ends, or "
          "a __syncthreads() that not every thread of the block reaches",
          what, timeout_seconds);
      mark_context_lost(msg);
      throw CudaError(msg, cudaErrorLaunchTimeout, true);
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
}

}  // namespace harness
