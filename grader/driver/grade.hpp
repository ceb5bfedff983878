// Grading one lesson: rebuild its hidden-test target, run the tests in watched child processes
// (a fresh one after every sticky error, crash or hang), and turn the records into a report.
// One file per job: build.hpp (the build and its messages), test_run.hpp (running the hidden
// tests), sanitizer.hpp (finding and reading compute-sanitizer), tool_run.hpp (the hidden tests
// under one compute-sanitizer tool, findings per step), run_lock.hpp (one grader per target);
// grade.cpp puts them together, with the default grade's memcheck stage and --sanitize.
// What kind of run it is (a grade, a quick one, --sanitize) is GradeOptions::kind.
#pragma once

#include <string>
#include <vector>

#include "build.hpp"
#include "course/manifest.hpp"
#include "course/report.hpp"
#include "grade_options.hpp"
#include "sanitizer.hpp"

namespace driver {

/// The report's message when there is no usable GPU: the plain sentence first (nothing was
/// graded, what grading needs, the Colab notebook docs/colab.ipynb as the next step, and what works
/// here without a GPU: the map, hint, quiz, every lesson's tool (course::ext::tools()) and the
/// build), then what CUDA said, `cuda_error` ("" = unknown). `min_cc` is the lesson's minimum
/// compute capability ("" = 7.5).
std::string no_gpu_message(const std::string& cuda_error, const std::string& min_cc);

/// Grades `selection` (a lesson, or one step of it) as GradeOptions::kind says. A grade
/// (RunKind::grade, RunKind::quick) runs its hidden tests, timed; RunKind::grade also runs
/// compute-sanitizer memcheck over the small shapes of every selected step beside them (the timed
/// tests wait for it), and judges each step that passed its tests and gate by it, running those
/// steps under memcheck again after the tests when that run found any error or a test failed
/// under it (docs/INSTRUCTORS.md, "Sanitizers"). A memcheck finding fails its step, with one more test "<step>/compute-sanitizer.memcheck"
/// listed first; without compute-sanitizer the steps keep their verdicts and the lesson's memcheck
/// fields say why it did not run. A step whose tests hung for GradeOptions::hang_budget seconds
/// runs no further test (each is reported as not run). RunKind::sanitize runs the tests under
/// compute-sanitizer instead, once per tool of GradeOptions::sanitize_tools (memcheck, racecheck,
/// synccheck, initcheck), on small shapes and without timing: each tool becomes one more test per
/// step, "<step>/compute-sanitizer.<tool>", failed when the tool reports any error. `device`
/// receives the device record.
course::LessonReport grade(const course::Selection& selection, const GradeOptions& options,
                           nlohmann::json& device);

/// The hidden tests of `exe` that match `filter`, parsed from --gtest_list_tests.
std::vector<std::string> list_tests(const std::string& exe, const std::string& filter,
                                    std::string& error);

}  // namespace driver
