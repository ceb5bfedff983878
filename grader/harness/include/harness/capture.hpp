/// @file capture.hpp
/// @brief Capturing what a launch prints: the standard output of this process redirected to a
/// temporary file around a launch and the synchronization that flushes the device's printf
/// buffer, and a comparison of the captured lines with the expected ones, in any order.
///
/// Why a file descriptor and a synchronization. A kernel's printf() writes into a buffer on the
/// device; the CUDA runtime copies it to the host's standard output only when the host
/// synchronizes with the device (cudaDeviceSynchronize() and the other calls the CUDA C++
/// Programming Guide lists under "Formatted Output"), a blocking copy, or the next launch. A
/// hidden-test process's standard output is the grader's log file, so a test cannot read it
/// back: capture_device_output() points file descriptor 1 at a temporary file for the duration
/// of the launch and that synchronization, then points it back, whatever happens in between.
///
/// Nothing in the launch's order is promised: blocks run in any order (Programming Guide,
/// "Thread Hierarchy"), so lines are compared as a multiset (compare_lines()).
///
/// ```cpp
/// const std::string text = harness::capture_device_output([&] {
///   c.launch(lesson::launch_print, blocks, threads);  // waits for the kernel
/// });
/// const harness::LineDiff d = harness::compare_lines(expected_lines, text);
/// if (!d.ok()) c.fail(harness::describe(d));
/// ```
#pragma once

#include <cstddef>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace harness {

/// The standard output could not be redirected (no temporary file, dup() failed, ...).
struct CaptureError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Redirects this process's file descriptor 1 (standard output) to a temporary file, from
/// construction until finish() or destruction, whichever comes first. Both flush C's `stdout` and
/// C++'s `std::cout` before switching, so nothing printed before the capture lands in it and
/// nothing printed during it is left behind in a buffer. Not thread-safe: one capture at a time,
/// and nothing else may redirect file descriptor 1 meanwhile.
class StdoutCapture {
 public:
  /// Starts capturing. @throws CaptureError when no temporary file can be made or the
  /// descriptors cannot be duplicated (standard output is then unchanged).
  StdoutCapture();
  /// Restores standard output if finish() was not called (e.g. an exception in between).
  ~StdoutCapture();
  StdoutCapture(const StdoutCapture&) = delete;
  StdoutCapture& operator=(const StdoutCapture&) = delete;

  /// Flushes, restores standard output and returns everything written to it since construction.
  /// A second call returns "". @throws CaptureError when the temporary file cannot be read back
  /// (standard output is restored first).
  std::string finish();

 private:
  void restore() noexcept;
  std::FILE* file_ = nullptr;  // the temporary file (deleted when closed)
  int saved_ = -1;             // duplicate of the original file descriptor 1
};

/// Runs `launch` (which launches a kernel and waits for it, e.g. Case::launch) with standard
/// output captured, then calls cudaDeviceSynchronize() so that the device's printf buffer is
/// copied out before standard output is restored, and returns what was printed. Skips the
/// synchronization when the CUDA context is already lost (harness::context_lost()): it would wait
/// forever on a hung kernel.
/// @throws whatever `launch` throws (standard output is restored first); CudaError when the
///   synchronization fails; CaptureError as StdoutCapture does.
std::string capture_device_output(const std::function<void()>& launch);

/// Splits captured text into lines at each newline; each line loses the trailing spaces, tabs and
/// carriage returns a format may leave, and empty lines are dropped.
std::vector<std::string> split_lines(const std::string& text);

/// How printed lines differ from the expected ones, counted as multisets (order ignored): a line
/// expected once and printed twice is `repeated`, a line never expected is `unexpected`.
struct LineDiff {
  std::size_t expected = 0;  ///< lines expected (with repeats)
  std::size_t printed = 0;   ///< lines printed (non-empty, with repeats)
  /// Expected lines printed fewer times than expected, in the order of the expected list, with
  /// how many copies are missing.
  std::vector<std::pair<std::string, std::size_t>> missing;
  /// Expected lines printed more times than expected, in the order first printed, with how many
  /// times they were printed.
  std::vector<std::pair<std::string, std::size_t>> repeated;
  /// Lines that were not expected at all, each once, in the order first printed, with how many
  /// times they were printed.
  std::vector<std::pair<std::string, std::size_t>> unexpected;
  /// Lines missing in all, with repeats (the sum of `missing`'s counts).
  std::size_t missing_count() const;
  /// True when the printed lines are exactly the expected ones, in some order.
  bool ok() const { return missing.empty() && repeated.empty() && unexpected.empty(); }
};

/// Compares the lines of `text` (split_lines()) with `expected`, order ignored.
LineDiff compare_lines(const std::vector<std::string>& expected, const std::string& text);

/// One message for a student, e.g. `printed 16 lines, expected 8: 8 lines printed more than once
/// (e.g. "block 0 thread 0 global 0" 2 times)`, or `printed nothing, expected 8 lines such as
/// "block 0 thread 0 global 0"`. Names at most `examples` lines of each kind, each cut to its
/// first 100 characters when longer. "" when d.ok().
std::string describe(const LineDiff& d, std::size_t examples = 3);

}  // namespace harness
