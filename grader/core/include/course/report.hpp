/// @file report.hpp
/// @brief What the grader found, per lesson and step, and its four renderings: the terminal
/// text, `--json`, JUnit XML (`--junit`) and Gradescope's results.json (`--gradescope`).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/protocol.hpp"

namespace course {

/// Exit codes of `grader` (documented in --help and README.md).
enum ExitCode : int {
  kExitOk = 0,                        ///< everything asked for passed
  kExitFailed = 1,                    ///< at least one step failed (wrong, too slow, crashed, hung)
  kExitUsage = 2,                     ///< bad command line, unknown lesson or step
  kExitNoGpu = protocol::kExitNoGpu,  ///< 3: no CUDA GPU (or no CUDA compiler): nothing graded
  kExitBuildFailed = 4,               ///< the lesson's code did not compile
  kExitInternal = 5,  ///< the grader itself could not work (manifest, build tree, protocol)
};

/// A speed measurement against the lesson's copy ceiling (from the speed test's properties).
struct SpeedFigures {
  std::string shape;        ///< "8192x8192"
  double bytes = 0;         ///< bytes the task must read + write
  double gbps = 0;          ///< student kernel, median, 10^9 B/s
  double ceiling_gbps = 0;  ///< ceiling kernel, median over the same pairs
  double ratio = 0;         ///< median over pairs of student/ceiling
  double ratio_q1 = 0, ratio_q3 = 0;
  std::optional<double> gate;  ///< required ratio, if the step has a gate
  int pairs = 0;
  std::string verdict;  ///< pass, fail, impossible
  bool close_call = false;
  double memcpy_gbps = 0;  ///< cudaMemcpy device-to-device, same bytes, for context
  double peak_gbps = 0;    ///< 2 x memory clock x bus width, for context
  std::string ceiling_kernel;

  static std::optional<SpeedFigures> from_properties(const nlohmann::json& p);
};

/// One step's outcome.
struct StepReport {
  std::string name;
  std::string title;
  bool optional = false;
  std::string status;  ///< pass, fail, skipped
  int tests_passed = 0;
  int tests_total = 0;
  std::vector<protocol::TestRecord> problems;  ///< tests that did not pass, in order
  std::optional<SpeedFigures> speed;
  std::string reason;  ///< one line: why it failed or was skipped
};

/// One lesson's outcome.
struct LessonReport {
  std::string id;
  std::string title;
  std::string status;     ///< pass, fail, build_failed, no_gpu, unsupported, error
  std::string message;    ///< for non-pass states other than fail: what happened and what to do
  std::string build_log;  ///< compiler output when the build failed
  std::vector<StepReport> steps;
  unsigned long long seed = 0;
  std::string variant;  ///< "" for the student's own code, else stub/solution/<wrong kernel>
};

/// The whole run.
struct Report {
  std::string grader_version;
  std::string course_version;
  std::string configuration;  ///< exercises or solutions
  nlohmann::json device;      ///< the hidden tests' "device" record, or null
  std::vector<LessonReport> lessons;

  int exit_code() const;
};

/// Groups test records by step and decides each step: pass only when every test of the step
/// ran and passed. `expected` lists every test the run should have produced, so tests that
/// never reported are counted as not run rather than silently dropped.
std::vector<StepReport> build_steps(const Lesson& lesson, const std::vector<const Step*>& steps,
                                    const std::vector<std::string>& expected,
                                    const std::vector<protocol::TestRecord>& records);

struct TextOptions {
  bool color = false;
  bool verbose = false;  ///< every failure, not just the first few per step
  std::string grader_command = "./build/grader";  ///< how hints are suggested
};

std::string to_text(const Report& report, const TextOptions& options);
nlohmann::json to_json(const Report& report);
std::string to_junit(const Report& report);
/// Gradescope autograder results: one test per step, 1 point each; `output` holds the text report.
nlohmann::json to_gradescope(const Report& report, const std::string& text_report);

/// "3,598" style thousands grouping for GB/s figures.
std::string group_thousands(double value);

}  // namespace course
