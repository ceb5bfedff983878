// Grading one lesson: rebuild its hidden-test target, run the tests in watched child processes
// (a fresh one after every sticky error, crash or hang), and turn the records into a report.
#pragma once

#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/report.hpp"

namespace driver {

struct GradeOptions {
  std::string binary_dir;      ///< the CMake build tree holding the targets
  std::string lesson_bin_dir;  ///< where grade_<lesson> executables are
  std::string variant;         ///< "" = the configured kernels; else stub, solution, <wrong kernel>
  bool build = true;           ///< rebuild the target first
  unsigned long long seed = 0;
  int device = 0;
  double test_timeout = 120;   ///< wall seconds per test before the grader kills it
  double kernel_timeout = 10;  ///< seconds a single kernel may run (inside the test process)
  /// Seconds a step's tests may spend hanging (each hang costs kernel_timeout, or test_timeout
  /// when the grader has to kill the test) before its remaining tests are not run.
  double hang_budget = 25;
  /// The hidden tests' own --quick mode: small shapes only, untimed (for compute-sanitizer runs).
  bool quick = false;
  /// The hidden tests' --skip-large: the cases that need several GiB (lesson 03's 2^31 elements)
  /// are skipped (the grader's --quick; `dev check --skip-large`).
  bool skip_large = false;
  /// After the tests, run compute-sanitizer memcheck on the small shapes of the steps that passed
  /// their tests and gate (false: the grader's --quick, which records no progress).
  bool memcheck = true;
  std::vector<std::string> wrapper;  ///< e.g. {"compute-sanitizer", "--tool", "memcheck"}
  bool progress = true;              ///< print what is happening on stderr
  /// Sub-folder of grader-runs/<target>/ for this run's logs ("" = that folder itself).
  std::string run_name;
  /// compute-sanitizer for memcheck and sanitize() ("" = find_sanitizer()); tests pass a
  /// stand-in.
  std::string sanitizer;
};

/// The report's message when there is no usable GPU: the plain sentence first (nothing was
/// graded, what grading needs, the Colab notebook docs/colab.ipynb as the next step, and what works
/// here without a GPU: the map, hint, quiz, every lesson's tool (course::ext::tools()) and the
/// build), then what CUDA said, `cuda_error` ("" = unknown). `min_cc` is the lesson's minimum
/// compute capability ("" = 7.5).
std::string no_gpu_message(const std::string& cuda_error, const std::string& min_cc);

/// Name of the executable target that grades `lesson` (with an optional variant).
std::string target_name(const std::string& lesson, const std::string& variant);

/// The line printed before a lesson's first build (no executable yet): what is built, for which
/// architectures, and roughly how long that takes on 2 cores.
std::string first_build_note(const std::string& lesson, const std::string& variant);

/// Builds the target; on failure returns false and fills `log` with the compiler's errors. On
/// success, `warnings` (when given) receives the compiler's warnings about the student's files
/// (student_warnings()): from this build when it compiled them, else those of the build that last
/// did (kept in grader-runs/<target>.warnings), since an unchanged file is not compiled again.
bool build_target(const GradeOptions& options, const std::string& target, std::string& log,
                  std::string* warnings = nullptr);

/// The compiler's warnings about the student's own files (paths with exercises/ or solutions/)
/// in a build's output, each with the lines under it that show where (nvcc's and gcc's source
/// line and caret); `source_dir` + "/" is cut from the paths. "" when there are none.
std::string student_warnings(const std::string& build_output, const std::string& source_dir);

/// Grades `selection` (a lesson, or one step of it): its hidden tests, timed, then (unless
/// GradeOptions::memcheck is false) compute-sanitizer memcheck once over the small shapes of every
/// step that passed its tests and gate. A memcheck finding fails its step, with one more test
/// "<step>/compute-sanitizer.memcheck" listed first; without compute-sanitizer the steps keep
/// their verdicts and the lesson's memcheck fields say why it did not run. A step whose tests hung
/// for GradeOptions::hang_budget seconds runs no further test (each is reported as not run).
/// `device` receives the device record.
course::LessonReport grade(const course::Selection& selection, const GradeOptions& options,
                           nlohmann::json& device);

/// Grades `selection` under compute-sanitizer, once per tool (memcheck, racecheck, synccheck,
/// initcheck), on small shapes and without timing. Each tool becomes one more test per step,
/// "<step>/compute-sanitizer.<tool>", failed when the tool reports any error.
course::LessonReport sanitize(const course::Selection& selection, const GradeOptions& options,
                              const std::vector<std::string>& tools, nlohmann::json& device);

/// What compute-sanitizer printed: its error count (summed over processes) and first lines.
struct SanitizerFindings {
  int errors = 0;
  std::vector<std::string> first_lines;
};
SanitizerFindings sanitizer_findings(const std::string& log);

/// compute-sanitizer: $GRADER_COMPUTE_SANITIZER when set (as it is, for instructors and tests),
/// else the one of the build's toolkit (next to nvcc, or in the toolkit's compute-sanitizer/
/// folder), in /usr/local/cuda/bin or on PATH; "" if none.
std::string find_sanitizer();

/// compute-sanitizers installed where find_sanitizer() does not look: other toolkits' bin/
/// folders (/usr/local/cuda-*/bin, /opt/cuda/bin, /opt/nvidia/*/bin).
std::vector<std::string> other_sanitizers();

/// Why there is no compute-sanitizer to run, with the two cases told apart: installed elsewhere
/// (the first of `elsewhere`: put its folder on PATH or name it in GRADER_COMPUTE_SANITIZER) or
/// not installed at all (the toolkit in `toolkit_bin`, the folder of the build's nvcc, has none:
/// install it; PATH is not the problem). No final full stop: callers go on.
std::string missing_sanitizer_reason(const std::string& toolkit_bin,
                                     const std::vector<std::string>& elsewhere);

/// The compute-sanitizer grading runs: GradeOptions::sanitizer, else find_sanitizer(). Returns ""
/// and fills `why` (a sentence for the report) when there is none or it is not executable.
std::string usable_sanitizer(const GradeOptions& options, std::string& why);

/// The hidden tests of `exe` that match `filter`, parsed from --gtest_list_tests.
std::vector<std::string> list_tests(const std::string& exe, const std::string& filter,
                                    std::string& error);

/// Keeps the compiler's error lines (and a little context) from a build log, at most `max_lines`.
std::string compiler_errors(const std::string& build_output, std::size_t max_lines = 40);

/// The report's first line when `target` could not be built, from what the build printed: a file
/// of the lesson missing (cmake/CourseLesson.cmake's "course configure error:"), a link error, or
/// a compile error.
std::string build_failure_message(const std::string& target, const std::string& build_output);

}  // namespace driver
