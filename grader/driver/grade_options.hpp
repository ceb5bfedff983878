// What one grading run is asked to do: the build tree, the variant, time limits, quick mode,
// memcheck, the wrapper and compute-sanitizer. Shared by the driver's build, test-running and
// sanitizer code (grade.hpp, build.hpp, sanitizer.hpp).
#pragma once

#include <string>
#include <vector>

namespace driver {

/// The options of one grading run (grade(), sanitize(), build_target()).
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
  /// Run only each step's timed test ("<step>/Speed.*"), not its correctness cases: for
  /// `dev calibrate`, which wants the figures of many runs and no verdict. The report's steps then
  /// count that one test.
  bool speed_tests_only = false;
  std::vector<std::string> wrapper;  ///< e.g. {"compute-sanitizer", "--tool", "memcheck"}
  bool progress = true;              ///< print what is happening on stderr
  /// Sub-folder of grader-runs/<target>/ for this run's logs ("" = that folder itself).
  std::string run_name;
  /// compute-sanitizer for memcheck and sanitize() ("" = find_sanitizer()); tests pass a
  /// stand-in.
  std::string sanitizer;
};

}  // namespace driver
