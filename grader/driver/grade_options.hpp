// What one grading run is asked to do: the build tree, the variant, the kind of run, time
// limits, the wrapper and compute-sanitizer. Shared by the driver's build, test-running and
// sanitizer code (grade.hpp, build.hpp, sanitizer.hpp).
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "course/report.hpp"

namespace driver {

/// The options of one grading run (grade(), build_target()).
struct GradeOptions {
  std::string binary_dir;      ///< the CMake build tree holding the targets
  std::string lesson_bin_dir;  ///< where grade_<lesson> executables are
  std::string variant;         ///< "" = the configured kernels; else stub, solution, <wrong kernel>
  /// A grade, a quick grade (no memcheck stage) or a --sanitize run: what grade() does, and what
  /// the report says it was.
  course::RunKind kind = course::RunKind::grade;
  /// RunKind::sanitize: the compute-sanitizer tools to run the tests under, in order.
  std::vector<std::string> sanitize_tools;
  bool build = true;  ///< rebuild the target first
  unsigned long long seed = 0;
  int device = 0;
  double test_timeout = 120;   ///< wall seconds per test before the grader kills it
  double kernel_timeout = 10;  ///< seconds a single kernel may run (inside the test process)
  /// Seconds a step's tests may spend hanging (each hang costs kernel_timeout, or test_timeout
  /// when the grader has to kill the test) before its remaining tests are not run.
  double hang_budget = 25;
  /// Passes the hidden tests their own --quick flag: small shapes only, untimed. Every run under
  /// compute-sanitizer does (the grade's memcheck stage and RunKind::sanitize).
  bool small_shapes_untimed = false;
  /// The hidden tests' --skip-large: the cases that need several GiB (lesson 03's 2^31 elements)
  /// and the correctness cases of more than 2^23 elements (harness::kLargestQuickCase) are
  /// skipped (the grader's --quick; `dev check --skip-large`).
  bool skip_large = false;
  /// Run only each step's timed test ("<step>/Speed.*"), not its correctness cases: for
  /// `dev calibrate`, which wants the figures of many runs and no verdict. The report's steps then
  /// count that one test.
  bool speed_tests_only = false;
  std::vector<std::string> wrapper;  ///< e.g. {"compute-sanitizer", "--tool", "memcheck"}
  bool status_messages = true;       ///< say on stderr what is happening (building, running)
  /// Sub-folder of grader-runs/<target>/ for this run's logs ("" = that folder itself).
  std::string run_name;
  /// compute-sanitizer for the memcheck stage and RunKind::sanitize ("" = find_sanitizer()); tests
  /// pass a stand-in.
  std::string sanitizer;
  /// The hidden tests' --quiet-gpu-lock: their timed and profiled tests wait for an flock on this
  /// file, which the grade holds while memcheck runs beside them (grade.cpp); "" = none.
  std::string quiet_gpu_lock;
  /// When set and it becomes true, the run's test processes are killed and it ends without a
  /// verdict: the grade that started it no longer needs it (grade.cpp, MemcheckBeside::stop()).
  const std::atomic<bool>* stop = nullptr;

  /// Makes this run the grader's --quick (also `grader class --quick`): RunKind::quick, and the
  /// large cases skipped (skip_large).
  void make_quick() {
    kind = course::RunKind::quick;
    skip_large = true;
  }
};

}  // namespace driver
