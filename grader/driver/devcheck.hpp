// `grader dev check`: the instructors' and CI's proof that the course is consistent.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "course/manifest.hpp"
#include "grade.hpp"

namespace driver {

struct DevCheckOptions {
  std::string lesson;  ///< "" = every ready lesson
  std::string only;    ///< "" = every variant; else stub, solution or a wrong kernel's name
  int repeat = 1;      ///< grade each variant this many times (verdicts must never flip)
  /// Skip the cases that need several GiB (lesson 03's 2^31 elements) and the correctness cases
  /// past 2^23 elements, as the grader's --quick does; memcheck still runs.
  bool skip_large = false;
};

/// What grading one variant of a lesson, DevCheckOptions::repeat times, found.
struct VariantOutcome {
  std::string problem;   ///< "" = as expected (the solution passes, the stub fails, a wrong kernel
                         ///< is caught)
  bool skipped = false;  ///< a tool it needs is missing, or its step cannot be graded here
  std::string no_gpu;    ///< the reason, when there is no GPU: the GPU checks stop
  /// The reason the lesson cannot be graded on this GPU (too old for it, or the build folder's
  /// device images are for another GPU): the lesson's other variants are skipped.
  std::string unsupported;
  std::map<std::string, std::vector<double>>
      ratios;  ///< per step: fraction of the ceiling, per run
  std::map<std::string, std::set<course::StepStatus>> verdicts;  ///< per step: the verdicts seen
  nlohmann::json device;  ///< the hidden tests' device record (its "name": the GPU)
};

/// Grades variant `v` (solution, stub or a wrong kernel, which is graded as its step only) of
/// `lesson` `o.repeat` times, one seed after another from `g.seed`, and says whether it did what
/// it must. Prints the report when it did not.
VariantOutcome grade_variant(const course::Lesson& lesson, const std::string& v,
                             const DevCheckOptions& o, GradeOptions& g);

/// Problems with the files of ready lessons: text, stub, solution (same file names), hidden
/// tests, wrong kernels (each listed one present, no unlisted ones), and stray lesson folders.
std::vector<std::string> layout_problems(const course::Manifest& m, const std::string& source_dir);

/// Runs the checks and prints what it found. Returns the exit code (course::ExitCode): kExitOk
/// when every check ran and all is as expected; kExitFailed on drift (whatever was skipped);
/// kExitUsage for an unknown --lesson or --only; kExitNoGpu (3) when what ran is as expected but
/// checks were skipped here: the GPU checks (no GPU, or a build without dev targets), a lesson
/// this GPU cannot grade (VariantOutcome::unsupported) or entries that need compute-sanitizer.
/// Never 0 after a skip, so CI can tell skipped from passed.
int dev_check(const course::Manifest& m, const DevCheckOptions& options,
              GradeOptions grade_options);

}  // namespace driver
