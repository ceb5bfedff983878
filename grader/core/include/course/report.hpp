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
#include "course/speed_record.hpp"
#include "course/status.hpp"

namespace course {

/// Exit codes of `grader` (documented in --help and README.md).
enum ExitCode : int {
  kExitOk = 0,                        ///< everything asked for passed
  kExitFailed = 1,                    ///< at least one step failed (wrong, too slow, crashed, hung)
  kExitUsage = 2,                     ///< bad command line, unknown lesson or step
  kExitNoGpu = protocol::kExitNoGpu,  ///< 3: no usable GPU, or a needed tool (CUDA compiler,
                                      ///< compute-sanitizer, ncu) is missing
  kExitBuildFailed = 4,               ///< the lesson's code did not compile
  kExitInternal = 5,  ///< the grader itself could not work (manifest, build tree, protocol)
};

/// What an exit code of `grader` means, in the words every copy of the table uses.
struct ExitCodeMeaning {
  ExitCode code;        ///< the code
  const char* meaning;  ///< one sentence, Markdown (backticks around names)
};

/// Every exit code of `grader` with its meaning, in order: the one source of the table in
/// `grader --help`, README.md and docs/INSTRUCTORS.md (the last two generated between
/// <!-- exit-codes:begin --> and <!-- exit-codes:end --> by `grader dev readme --write`).
const std::vector<ExitCodeMeaning>& exit_code_meanings();

/// The table of exit_code_meanings() as Markdown ("| code | meaning |").
std::string exit_codes_markdown();

/// The same as plain text for --help: "Exit codes:" and one indented entry per code, wrapped at
/// `width` columns, backticks dropped.
std::string exit_codes_text(std::size_t width = 79);

/// What kind of grading run a lesson had: which stages ran, and so whether it can count as the
/// student's progress (the driver's records_progress() decides, from this and the variant).
enum class RunKind {
  /// The hidden tests, timed, then compute-sanitizer memcheck on the small shapes of the steps
  /// that passed: the grade that counts.
  grade,
  /// The hidden tests, timed, without the memcheck stage (the grader's --quick, `grader class
  /// --quick`, `grader dev calibrate`): never recorded as progress.
  quick,
  /// The hidden tests under compute-sanitizer tools, small shapes only, untimed (--sanitize):
  /// never recorded as progress.
  sanitize,
};

/// One step's outcome.
struct StepReport {
  std::string name;                      ///< the step's name in the manifest, e.g. "tiled_padded"
  std::string title;                     ///< the step's title in the manifest
  bool optional = false;                 ///< an extension: its failure does not fail the lesson
  StepStatus status = StepStatus::fail;  ///< pass, fail, skipped
  int tests_passed = 0;                  ///< hidden tests of the step that passed
  int tests_total = 0;                   ///< hidden tests of the step that should have run
  int tests_skipped = 0;                 ///< of tests_total, those that reported "skipped"
  /// Why tests were skipped, as they said (less protocol::kQuickSkipPrefix), each with how many
  /// tests gave it, in the order first seen.
  std::vector<std::pair<std::string, int>> skip_reasons;
  /// The default grade's compute-sanitizer memcheck on the step's small shapes (none under
  /// --sanitize, which runs the tools instead of the grade).
  StepMemcheck memcheck = StepMemcheck::none;
  std::vector<protocol::TestRecord> problems;  ///< tests that did not pass, in order
  std::optional<SpeedFigures> speed;           ///< from the step's speed test, if it ran one
  std::string reason;                          ///< one line: why it failed or was skipped
};

/// One lesson's outcome.
struct LessonReport {
  std::string id;                            ///< "07_transpose"
  std::string title;                         ///< the lesson's title in the manifest
  LessonStatus status = LessonStatus::fail;  ///< fail until decided
  std::string message;    ///< for non-pass states other than fail: what happened and what to do
  std::string build_log;  ///< compiler output when the build failed
  /// The compiler's warnings about the student's own files when the build succeeded ("" = none):
  /// the report shows them (the first lines; every line with --verbose).
  std::string build_warnings;
  std::vector<StepReport> steps;  ///< the steps graded, in manifest order (empty if none ran)
  unsigned long long seed = 0;    ///< seed of the random test inputs (--seed)
  std::string variant;  ///< "" for the student's own code, else stub, solution or a wrong kernel
  /// The default grade's memcheck stage (none under --sanitize, or when nothing was graded).
  LessonMemcheck memcheck = LessonMemcheck::none;
  std::string memcheck_note;      ///< that stage in one line for the report ("" = nothing to say)
  RunKind kind = RunKind::grade;  ///< the kind of run that graded it
  /// --sanitize: the compute-sanitizer tools the tests ran under (small shapes, untimed); empty
  /// for a grade.
  std::vector<std::string> sanitize_tools;
};

/// The whole run.
struct Report {
  std::string grader_version;         ///< the grader's version (the CMake project's)
  std::string course_version;         ///< the manifest's "version"
  std::string configuration;          ///< exercises or solutions
  nlohmann::json device;              ///< the hidden tests' "device" record, or null
  std::vector<LessonReport> lessons;  ///< one per lesson graded, in the order asked for

  /// The process exit code for this run (an ExitCode), most actionable first: kExitInternal if
  /// any lesson ended in an internal error, else kExitBuildFailed if one did not compile, else
  /// kExitNoGpu if one could not run here (no GPU, a missing tool), else kExitOk when at least one
  /// lesson was graded and every one passed, else kExitFailed.
  int exit_code() const;
};

/// Groups test records by step and decides each step: pass only when every test of the step
/// ran and passed. `expected` lists every test the run should have produced, so tests that
/// never reported are counted as not run rather than silently dropped.
std::vector<StepReport> build_steps(const Lesson& lesson, const std::vector<const Step*>& steps,
                                    const std::vector<std::string>& expected,
                                    const std::vector<protocol::TestRecord>& records);

/// How to_text() renders a report.
struct TextOptions {
  bool color = false;    ///< ANSI colour codes (the grader sets it only for a terminal)
  bool verbose = false;  ///< every failure, not just the first few per step
  std::string grader_command = "./build/grader";  ///< how hints are suggested
};

/// The report as the terminal shows it: one line per step (PASS/FAIL, tests and how many were
/// skipped and why, GB/s and % of the ceiling, and remeasure_note() when the gate made the timing
/// go on), under each timed step the clocks it was timed at (clocks_line()), why failed steps
/// failed, a hint command, the ceiling and context figures with the bandwidth formula (GB/s =
/// 10^9 B/s), and the memcheck stage's note: per lesson where it ran or failed; once for the
/// whole report where it was skipped (--quick) or compute-sanitizer is missing. Why a lesson could
/// not be graded here (no GPU, a missing tool) is said in full once; a later lesson with the same
/// reason refers to the first ("not graded: the same reason as 01_hello_threads above").
std::string to_text(const Report& report, const TextOptions& options);
/// One line on the clocks a step was timed at, before -> after its timing loop: "clocks: SM 1980
/// -> 1965 MHz, memory 3201 MHz, 41 -> 47 C, not throttled (as found, not locked by the
/// grader)". The SM clock shows both readings; memory clock and temperature show one when it did
/// not change; a figure that was not read is left out; "" when none was read.
std::string clocks_line(const SpeedFigures& speed);
/// The note a timed step's line carries when its timing loop went on because the spread
/// straddled the gate: "re-measured: the first 30 pairs straddled the gate, decided on 600
/// pairs"; "" when it did not (SpeedFigures::remeasured false).
std::string remeasure_note(const SpeedFigures& speed);
/// The `--json` report (format "cuda-course-grader-report", format_version 1; see
/// docs/REFERENCE.md).
nlohmann::json to_json(const Report& report);
/// JUnit XML (`--junit`): one testsuite per lesson, one testcase per step; a lesson that graded
/// nothing (no GPU, build failure) is one testcase with an error.
std::string to_junit(const Report& report);
/// Gradescope autograder results: one test per step, 1 point each; `output` holds the text report.
nlohmann::json to_gradescope(const Report& report, const std::string& text_report);

/// "3,598" style thousands grouping for GB/s figures.
std::string group_thousands(double value);

}  // namespace course
