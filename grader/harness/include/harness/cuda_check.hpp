/// @file cuda_check.hpp
/// @brief CUDA error handling for hidden tests: every error becomes an exception with a message a
/// student can act on, and errors that poison the whole CUDA context ("sticky" errors such as an
/// illegal address) or a kernel that never finishes mark the process as unusable, so the test
/// reporter ends it and the grader reruns the remaining tests in a fresh process.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace harness {

/// A failed CUDA call. `sticky` means the context is lost for the rest of the process.
struct CudaError : std::runtime_error {
  /// @param message what was being done, the error's name and text, and its likely cause
  /// @param code    the CUDA error (cudaErrorLaunchTimeout for a kernel that never finished)
  /// @param sticky  true when the CUDA context is lost (see is_sticky())
  CudaError(const std::string& message, cudaError_t code, bool sticky)
      : std::runtime_error(message), code(code), sticky(sticky) {}
  cudaError_t code;  ///< the CUDA error
  bool sticky;       ///< the context is lost: no further CUDA work in this process
};

/// True for errors after which every later CUDA call in this process fails too.
bool is_sticky(cudaError_t err);

/// One sentence on the usual cause of `err` in student code ("" if none applies).
std::string likely_cause(cudaError_t err);

/// Throws CudaError when `err` is not cudaSuccess; `what` says what was being done.
void check(cudaError_t err, const std::string& what);

/// Waits until all work on `stream` is done, for at most `timeout_seconds` (default: the
/// --kernel-timeout of the process, 10 s). A kernel still running then is treated as hung: the
/// context is marked lost and CudaError is thrown. Also checks the stream's error.
void wait(cudaStream_t stream, const std::string& what, double timeout_seconds = -1);

/// Default for wait()'s timeout in seconds, set from the command line (--kernel-timeout) by the
/// test main.
void set_kernel_timeout(double seconds);
/// The default timeout of wait(), seconds (10 unless set_kernel_timeout() changed it).
double kernel_timeout();

/// Why this process can no longer run CUDA work ("" while it can).
const std::string& context_lost();
/// Records that the CUDA context is lost and why; the first reason is kept. The test reporter
/// then ends the process after the current test (see Reporter).
void mark_context_lost(const std::string& reason);

}  // namespace harness
