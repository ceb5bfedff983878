/// @file protocol.hpp
/// @brief How a hidden-test process tells the grader what happened: one JSON object per line in
/// a report file, flushed as it goes, so that a crash or a hang still leaves a readable trail.
///
/// Records, in order:
///   {"event":"device", "name":..., "cc":"9.0", "sms":..., "l2_bytes":..., ...}   or
///   the same with "device_image_problem":... (the student's kernels were compiled for another
///   GPU, cmake/CourseDeviceImage.cmake; then the process exits kExitNoGpu)   or
///   {"event":"no_gpu", "reason":...}                       (then the process exits kExitNoGpu)
///   {"event":"start", "test":"tiled/Correct.33x31"}
///   {"event":"end", "test":..., "status":"passed|failed|skipped", "ms":..., "failures":[...],
///    "properties":{...}}
///   {"event":"fatal", "test":..., "reason":...}  (a sticky CUDA error or a kernel that never
///                                                  finished; then the process exits
///                                                  kExitContextLost)
///   {"event":"waiting_for_quiet_gpu"}  (about once a second while a test waits for the GPU to
///                                       itself, harness/quiet_gpu.hpp: the process is alive;
///                                       with "on":"machine" while the wait is for another
///                                       hidden-test process on the machine, not for this grade)
///   {"event":"exit", "code":0|1}  (last: every test has ended; the process returns `code` from
///                                  main(). What is left is the CUDA context's teardown, which the
///                                  grader need not wait for: driver/process.hpp)
/// Test names start with the step they belong to: "<step>/<Suite>.<test>[/<param>]".
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/status.hpp"

/// The report-file protocol between a hidden-test process and the grader.
namespace course::protocol {

/// How the skip reason of a test that quick mode (--quick: small shapes, untimed, as under
/// compute-sanitizer) leaves out begins, e.g. "quick mode: large shape skipped". Reports show the
/// reason without it.
inline constexpr const char* kQuickSkipPrefix = "quick mode: ";

/// The words every speed test's failure message carries when a right kernel is slower than its
/// step's gate ("too slow, below the gate: ..."); the catalogue's near misses name it as their
/// diagnosis, and `grader dev calibrate` times only those against the gate.
inline constexpr const char* kBelowGate = "below the gate";
/// The words that open a speed test's failure when an output of a timed launch was wrong (a kernel
/// that remembers results, or races): the step's reason repeats them (report.cpp).
inline constexpr const char* kTimedResultsWrong = "the timed results were wrong";
/// The word that opens a speed test's failure when its figure is above the ceiling's impossible
/// bound (course::Ceiling::impossible_above()).
inline constexpr const char* kRejected = "rejected";

/// Exit code of a hidden-test process that found no usable GPU (also the grader's: see
/// course::kExitNoGpu in course/report.hpp).
inline constexpr int kExitNoGpu = 3;
/// Exit code of a hidden-test process whose CUDA context is unusable (sticky error, hung kernel):
/// the grader reruns the tests that did not run yet in a fresh process.
inline constexpr int kExitContextLost = 86;

/// The outcome of one test, as reported by the process that ran it or as inferred by the grader.
struct TestRecord {
  std::string name;                        ///< full test name, "STEP/Suite.test[/param]"
  TestStatus status = TestStatus::failed;  ///< as the process reported it, or as the grader found
  std::vector<std::string> failures;       ///< failure messages, in order
  nlohmann::json properties = nlohmann::json::object();  ///< measurements etc.
  double ms = 0;  ///< the test's run time as GoogleTest measured it, milliseconds
};

/// Everything one hidden-test process wrote before it ended.
struct ChildLog {
  nlohmann::json device;             ///< the "device" record, or null
  bool no_gpu = false;               ///< the process wrote a "no_gpu" record
  std::string no_gpu_reason;         ///< that record's reason (the CUDA error), "" if none
  std::vector<TestRecord> finished;  ///< tests with an "end" record, in order
  std::string running;       ///< a test that started and has no "end" record yet ("" = none)
  std::string fatal_reason;  ///< from a "fatal" record
  std::string fatal_test;    ///< the test that "fatal" record names ("" = none)
  std::size_t waiting = 0;   ///< "waiting_for_quiet_gpu" records so far
  std::size_t waiting_on_machine = 0;  ///< those of them with "on":"machine"
  /// The exit code from the "exit" record the hidden-test binary writes once its last test has
  /// ended, before it returns from main(); empty until then, and for a process that ends earlier
  /// (a crash, a lost context, a test that ends its process on purpose).
  std::optional<int> exit_code;
};

/// Parses a report file's text. Lines that are not JSON (a torn last line) are ignored.
ChildLog parse_log(const std::string& text);

/// The step a test belongs to: the part of its name before the first '/', or "".
std::string step_of(const std::string& test_name);

}  // namespace course::protocol
