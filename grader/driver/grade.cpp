#include "grade.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <system_error>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join (in format.h before fmt 11)

#include "course/config.hpp"
#include "course/extensions.hpp"
#include "course/protocol.hpp"
#include "process.hpp"
#include "run_lock.hpp"
#include "test_run.hpp"
#include "tool_run.hpp"

namespace driver {

namespace fs = std::filesystem;
using course::protocol::TestRecord;

std::string no_gpu_message(const std::string& cuda_error, const std::string& min_cc) {
  std::string works = "`grader` (the course map), `grader hint`, `grader quiz`";
  for (const course::ext::ToolInfo& tool : course::ext::tools())
    works += fmt::format(", `grader {}`", tool.name);
  return fmt::format(
      "no usable CUDA GPU here, so nothing was graded: grading needs an NVIDIA GPU of compute "
      "capability {} or newer. Without one, run the course on Colab's free T4 GPU: open "
      "docs/colab.ipynb in Colab. On this machine {} and the build still work. (CUDA said: {})",
      min_cc.empty() ? "7.5" : min_cc, works,
      cuda_error.empty() ? "nothing; the test process found no GPU" : cuda_error);
}

namespace {

// compute-sanitizer `tool`'s verdict on `step` as one more test, "<step>/compute-sanitizer.<tool>":
// passed when it found nothing; else failed, with the error count, `why` and its first lines.
TestRecord tool_record(const std::string& step, const std::string& tool, const SanitizerFindings& f,
                       const std::string& log_path, const std::string& why) {
  TestRecord r;
  r.name = step + "/compute-sanitizer." + tool;
  r.status = f.errors == 0 ? course::TestStatus::passed : course::TestStatus::failed;
  if (f.errors == 0) return r;
  std::string text = fmt::format("compute-sanitizer {} found {} error{} (full output: {}).{}", tool,
                                 f.errors, f.errors == 1 ? "" : "s", log_path, why);
  text += " Its first lines:";
  for (const std::string& l : f.first_lines) text += "\n  " + l;
  r.failures.push_back(text);
  return r;
}

// What a lesson's report says when the grade's memcheck stage did not run.
constexpr const char* kGradedWithoutMemcheck =
    ". The steps were graded on their tests and gates only";

// What the default grade's memcheck stage adds to a lesson's report.
struct MemcheckChecks {
  TestRun checks;  ///< one "<step>/compute-sanitizer.memcheck" record per step checked
  std::map<std::string, course::StepMemcheck> verdict;  ///< StepReport::memcheck per step
};

// The verdict and record of memcheck on `step`, from its findings and from how the step's tests
// did under it.
course::StepMemcheck memcheck_verdict(const std::string& step, const SanitizerFindings& f,
                                      const std::vector<TestRecord>& under,
                                      const std::string& log_path, TestRecord& record) {
  std::vector<const TestRecord*> broken;  // tests of `step` that passed before, not under it
  for (const TestRecord& r : under)
    if (course::protocol::step_of(r.name) == step && r.status != course::TestStatus::passed &&
        r.status != course::TestStatus::skipped)
      broken.push_back(&r);
  std::string stopped;
  for (std::size_t i = 0; i < broken.size() && i < 3; ++i)
    stopped += (i ? ", " : "") + broken[i]->name;
  record = tool_record(
      step, "memcheck", f, log_path,
      broken.empty() ? " It checked this step's small shapes, where every test passed."
                     : fmt::format(" It reports the bad accesses of a launch and then makes the "
                                   "launch fail, so under it {} failed (with 'unspecified launch "
                                   "failure').",
                                   stopped));
  if (f.errors > 0) return course::StepMemcheck::errors;
  if (broken.empty()) return course::StepMemcheck::clean;
  const TestRecord& first = *broken.front();
  record.status = course::TestStatus::failed;
  record.failures.push_back(fmt::format(
      "compute-sanitizer memcheck reported no error, but under it {} test{} that passed without "
      "it did not (first: {} [{}]: {}). A kernel whose result depends on timing or on memory it "
      "never wrote (a race, an uninitialized read) behaves this way. Output in {}",
      broken.size(), broken.size() == 1 ? "" : "s", first.name, to_string(first.status),
      first.failures.empty() ? "" : first.failures.front(), log_path));
  return course::StepMemcheck::tests_failed;
}

// "errors in naive (failed); no errors in tiled, tiled_padded (compute-sanitizer memcheck ...)".
std::string memcheck_summary(const std::map<std::string, course::StepMemcheck>& verdict,
                             const std::vector<const course::Step*>& checked) {
  using course::StepMemcheck;
  std::map<StepMemcheck, std::vector<std::string>> by;
  for (const course::Step* s : checked) by[verdict.at(s->name)].push_back(s->name);
  std::vector<std::string> parts;
  if (by.count(StepMemcheck::errors))
    parts.push_back("errors in " + fmt::format("{}", fmt::join(by[StepMemcheck::errors], ", ")) +
                    " (failed)");
  if (by.count(StepMemcheck::tests_failed))
    parts.push_back("tests failed under it in " +
                    fmt::format("{}", fmt::join(by[StepMemcheck::tests_failed], ", ")) +
                    " (failed)");
  if (by.count(StepMemcheck::clean))
    parts.push_back("no errors in " + fmt::format("{}", fmt::join(by[StepMemcheck::clean], ", ")));
  return fmt::format("{}", fmt::join(parts, "; ")) +
         " (compute-sanitizer memcheck on the small shapes of the steps that passed their tests "
         "and gate)";
}

// Whether memcheck can run after this grade; if not, the lesson's memcheck fields say why.
// `sanitizer` receives the compute-sanitizer to run.
bool memcheck_can_run(const GradeOptions& o, bool any_passed, course::LessonReport& report,
                      std::string& sanitizer) {
  if (o.kind == course::RunKind::quick) {
    report.memcheck = course::LessonMemcheck::skipped;
    report.memcheck_note =
        "not run (--quick), and this grade is not recorded in your progress: grade without "
        "--quick to pass the steps for good";
    return false;
  }
  if (!any_passed) {
    report.memcheck = course::LessonMemcheck::not_needed;
    return false;
  }
  std::string why;
  sanitizer = usable_sanitizer(o, why);
  if (sanitizer.empty()) {
    report.memcheck = course::LessonMemcheck::unavailable;
    report.memcheck_note = "not run: " + why + kGradedWithoutMemcheck;
    return false;
  }
  return true;
}

// compute-sanitizer memcheck beside the hidden tests of a grade (RunKind::grade): started with
// them, on the small shapes of every selected step, in a thread of its own, while the test
// process's correctness cases run (they cannot change each other's verdicts); the test process's
// timed and profiled tests wait until it is done (--quiet-gpu-lock, harness/quiet_gpu.hpp). It
// keeps the tests' time limits, so a kernel that hangs costs it no more than it costs the tests.
// It is stopped (stop()) when nothing would read its verdict: the tests found no GPU or broke
// down, or no step passed.
// Its verdict is taken only where it cannot differ from the memcheck stage's after the tests: a
// step whose tests all passed under it, in a run that found no error at all. A finding anywhere
// (a failing step's kernel can end the process of a passing one's, and take its findings along)
// or a test that failed or hung under it sends every step that passed to that stage, as before
// (memcheck_passed_steps()).
class MemcheckBeside {
 public:
  MemcheckBeside(const course::Lesson& lesson, const std::vector<const course::Step*>& steps,
                 const GradeOptions& o) {
    if (o.kind != course::RunKind::grade || steps.empty()) return;
    std::string why;
    const std::string sanitizer = usable_sanitizer(o, why);
    if (sanitizer.empty()) return;
    lock_path_ = (runs_dir(o) / (target_name(lesson.id, o.variant) + ".quiet-gpu.lock")).string();
    // Not waited for: a test process left running by a grader killed with SIGKILL may still hold
    // it; memcheck then runs after the tests, as it always could.
    held_.emplace(lock_path_, false);
    GradeOptions beside = o;
    beside.status_messages = false;  // the grade says it once
    beside.stop = &stop_;
    try {
      if (held_->held())
        thread_ = std::thread([this, &lesson, steps, beside, sanitizer] {
          try {
            nlohmann::json device;
            course::LessonReport report;
            ran_ = run_steps_under_tool(lesson, steps, beside, {sanitizer, "memcheck", true},
                                        device, report, under_);
          } catch (...) {
            ran_ = false;  // checked after the tests
          }
          held_.reset();  // the GPU is quiet: the timed tests may start
        });
    } catch (const std::system_error&) {  // no thread to be had
    }
    if (!thread_.joinable()) {
      held_.reset();
      lock_path_.clear();
    }
  }
  ~MemcheckBeside() { join(); }
  MemcheckBeside(const MemcheckBeside&) = delete;
  MemcheckBeside& operator=(const MemcheckBeside&) = delete;

  /// The file the test process waits on (GradeOptions::quiet_gpu_lock); "" when nothing runs.
  const std::string& lock_path() const { return lock_path_; }

  /// Waits for the run; then its record of `step` when that stands as the step's verdict: the
  /// run found no error in any step and every test of `step` passed under it. nullptr otherwise
  /// (the memcheck stage checks the step after the tests).
  const StepUnderTool* clean(const std::string& step) {
    join();
    const auto it = under_.find(step);
    if (!ran_ || it == under_.end()) return nullptr;
    for (const auto& [name, u] : under_)
      if (u.found.errors > 0) return nullptr;
    TestRecord unused;
    return memcheck_verdict(step, it->second.found, it->second.records, it->second.log_path,
                            unused) == course::StepMemcheck::clean
               ? &it->second
               : nullptr;
  }

  /// Waits for the run and forgets it: the tests run again without it (grade_holding_lock()).
  void drop() {
    join();
    ran_ = false;
    lock_path_.clear();
  }

  /// Kills the run and forgets it: nothing would read memcheck's verdict, because the grade ends
  /// without the tests' (they found no GPU, or broke down) or no step passed. Waiting instead
  /// kept a grade that found no GPU going for as long as memcheck ran where it did find one
  /// (compute-sanitizer's process saw the H200 with CUDA_VISIBLE_DEVICES empty), 10 s for a
  /// kernel that never ends, on the GPU that other grades then waited for
  /// (docs/measured/H200.md, eighteenth session).
  void stop() {
    stop_ = true;
    drop();
  }

 private:
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  std::string lock_path_;
  std::optional<FileLock> held_;
  std::thread thread_;
  bool ran_ = false;
  std::atomic<bool> stop_{false};
  std::map<std::string, StepUnderTool> under_;
};

// The default grade's last stage: compute-sanitizer memcheck on the small shapes of the steps
// that passed their tests and gate. A step `beside` found clean keeps that verdict; the others run
// again, all in one run (a fresh process only after a finding). Sets the lesson's memcheck fields;
// returns each checked step's record and every step's verdict.
MemcheckChecks memcheck_passed_steps(const course::Lesson& lesson, const GradeOptions& o,
                                     MemcheckBeside& beside, course::LessonReport& report) {
  MemcheckChecks stage;
  std::vector<const course::Step*> todo;
  for (const course::StepReport& s : report.steps) {
    stage.verdict[s.name] = course::StepMemcheck::not_run;
    if (s.status != course::StepStatus::pass) continue;
    todo.push_back(lesson.find_step(s.name));
  }
  // No step passed: nothing reads memcheck's verdict, so its run beside the tests stops now (the
  // failing steps' speed tests no longer wait for it, reporter.cpp). A failing grade, the usual
  // one while a student works, ends with its tests.
  if (todo.empty()) beside.stop();
  std::string sanitizer;
  if (!memcheck_can_run(o, !todo.empty(), report, sanitizer)) return stage;
  std::map<std::string, StepUnderTool> under;
  std::vector<const course::Step*> again;
  std::vector<std::string> names;
  for (const course::Step* s : todo) {
    if (const StepUnderTool* u = beside.clean(s->name)) {
      under[s->name] = *u;
    } else {
      again.push_back(s);
      names.push_back(s->name);
    }
  }
  if (!again.empty()) {
    if (o.status_messages)
      fmt::print(stderr, "compute-sanitizer memcheck on the small shapes of {} ...\n",
                 fmt::format("{}", fmt::join(names, ", ")));
    nlohmann::json device;  // the grade's own run has the device record already
    course::LessonReport broke = labelled_report(lesson, o);  // says why, if the tests did not run
    if (!run_steps_under_tool(lesson, again, o, {sanitizer, "memcheck"}, device, broke, under)) {
      report.memcheck = course::LessonMemcheck::failed;
      report.memcheck_note = "not run: " + broke.message + kGradedWithoutMemcheck;
      return stage;
    }
  }
  for (const course::Step* s : todo) {
    TestRecord record;
    const StepUnderTool& u = under[s->name];
    stage.verdict[s->name] = memcheck_verdict(s->name, u.found, u.records, u.log_path, record);
    stage.checks.expected.push_back(record.name);
    stage.checks.records.push_back(record);
  }
  report.memcheck = course::LessonMemcheck::ran;
  report.memcheck_note = memcheck_summary(stage.verdict, todo);
  return stage;
}

course::LessonReport grade_holding_lock(const course::Selection& sel, const GradeOptions& o,
                                        nlohmann::json& device) {
  course::LessonReport report;
  if (!prepare(*sel.lesson, o, report)) return report;
  std::vector<const course::Step*> steps = selected_steps(sel);
  // An earlier grade's test process may still hold the lock memcheck beside the tests needs.
  wait_for_ended_test_processes();
  MemcheckBeside beside(*sel.lesson, steps, o);
  GradeOptions tests = o;
  tests.quiet_gpu_lock = beside.lock_path();
  if (o.status_messages && !beside.lock_path().empty())
    fmt::print(stderr, "compute-sanitizer memcheck on the small shapes, beside the tests ...\n");
  const course::LessonReport prepared = report;
  TestRun run;
  if (!run_tests(*sel.lesson, steps, tests, device, report, run)) {
    // A GPU in an exclusive compute mode (common on clusters) gives one process a context at a
    // time: the tests found it busy with memcheck's. Once more, alone; memcheck after them.
    if (report.status != course::LessonStatus::no_gpu || tests.quiet_gpu_lock.empty() ||
        report.message.find("cudaErrorDevicesUnavailable") == std::string::npos) {
      beside.stop();
      return report;
    }
    beside.drop();
    report = prepared;
    run = TestRun{};
    if (!run_tests(*sel.lesson, steps, o, device, report, run)) return report;
  }
  if (o.speed_tests_only)  // a step without a timed test (no gate, or host-only) has nothing here
    steps.erase(std::remove_if(steps.begin(), steps.end(),
                               [&](const course::Step* s) {
                                 return std::none_of(run.expected.begin(), run.expected.end(),
                                                     [&](const std::string& t) {
                                                       return course::protocol::step_of(t) ==
                                                              s->name;
                                                     });
                               }),
                steps.end());
  if (steps.empty()) {  // nothing timed was selected: no verdict, not a pass
    report.status = course::LessonStatus::error;
    report.message = "none of the selected steps has a timed test";
    return report;
  }
  decide(*sel.lesson, steps, run, report);
  const MemcheckChecks stage = memcheck_passed_steps(*sel.lesson, o, beside, report);
  if (!stage.checks.records.empty()) {
    // Listed first: a memcheck finding is the step's problem, whatever else it shows.
    run.expected.insert(run.expected.begin(), stage.checks.expected.begin(),
                        stage.checks.expected.end());
    run.records.insert(run.records.end(), stage.checks.records.begin(), stage.checks.records.end());
    decide(*sel.lesson, steps, run, report);
  }
  for (course::StepReport& s : report.steps) {
    s.memcheck = stage.verdict.at(s.name);
    // Only steps that passed ran under memcheck: its record is their only problem.
    if (s.memcheck == course::StepMemcheck::errors)
      s.reason =
          "every test passed, but compute-sanitizer memcheck found errors on the small shapes "
          "(an access outside an allocation, or a misaligned one: the output was right by luck)";
    else if (s.memcheck == course::StepMemcheck::tests_failed)
      s.reason =
          "every test passed, but some failed when run again under compute-sanitizer memcheck";
  }
  return report;
}

course::LessonReport sanitize_holding_lock(const course::Selection& sel,
                                           const GradeOptions& options, nlohmann::json& device) {
  course::LessonReport report;
  if (!prepare(*sel.lesson, options, report)) return report;
  std::string why;
  const std::string sanitizer = usable_sanitizer(options, why);
  if (sanitizer.empty()) {
    report.status = course::LessonStatus::unavailable;
    report.message = why + ", or grade without --sanitize";
    return report;
  }
  std::vector<std::string> tools;  // "memcheck,memcheck" runs it once: one test per tool
  for (const std::string& t : options.sanitize_tools)
    if (std::find(tools.begin(), tools.end(), t) == tools.end()) tools.push_back(t);
  const std::vector<const course::Step*> steps = selected_steps(sel);
  TestRun all;       // the correctness tests on small shapes (from the first tool's run)
  TestRun findings;  // one test per tool and step, listed first: it says why the others failed
  for (std::size_t i = 0; i < tools.size(); ++i) {
    for (const course::Step* step : steps) {
      if (options.status_messages)
        fmt::print(stderr, "compute-sanitizer {} on {}.{} ...\n", tools[i], sel.lesson->id,
                   step->name);
      StepUnderTool run;
      if (!run_step_under_tool(*sel.lesson, *step, options, {sanitizer, tools[i]}, device, report,
                               run))
        return report;
      if (i == 0) {
        all.expected.insert(all.expected.end(), run.expected.begin(), run.expected.end());
        all.records.insert(all.records.end(), run.records.begin(), run.records.end());
      }
      // memcheck makes a launch with bad accesses fail, so the tests whose kernel made one fail
      // with cudaErrorLaunchFailure: say so, or the student chases the wrong symptom.
      const TestRecord r = tool_record(
          step->name, tools[i], run.found, run.log_path,
          tools[i] == "memcheck"
              ? " It reports each bad access of a launch and then makes the launch fail, so a "
                "test that failed with 'unspecified launch failure' under --sanitize ran into one "
                "of these."
              : "");
      findings.expected.push_back(r.name);
      findings.records.push_back(r);
    }
  }
  all.expected.insert(all.expected.begin(), findings.expected.begin(), findings.expected.end());
  all.records.insert(all.records.end(), findings.records.begin(), findings.records.end());
  decide(*sel.lesson, steps, all, report);
  // The reason names the tools that reported errors: their records lead the step's problems.
  const std::string finding = "/compute-sanitizer.";
  for (course::StepReport& s : report.steps) {
    std::vector<std::string> found;
    for (const TestRecord& t : s.problems)
      if (const auto at = t.name.find(finding); at != std::string::npos)
        found.push_back(t.name.substr(at + finding.size()));
    if (!found.empty())
      s.reason = fmt::format("compute-sanitizer {} reported errors; {}",
                             fmt::format("{}", fmt::join(found, ", ")), s.reason);
  }
  report.message = "compute-sanitizer run: small shapes only, not timed";
  report.sanitize_tools = tools;
  return report;
}

// Runs `body` (one grading) holding its target's lock. A build tree the grader cannot write to
// becomes an error report (exit code 5) with the reason, not an uncaught exception.
template <class Body>
course::LessonReport with_target_lock(const course::Selection& sel, const GradeOptions& o,
                                      Body body) {
  const std::string target = target_name(sel.lesson->id, o.variant);
  try {
    fs::create_directories(runs_dir(o));
    const RunLock lock(runs_dir(o) / (target + ".lock"), "grading " + target, o.status_messages);
    return body();
  } catch (const fs::filesystem_error& e) {
    course::LessonReport report = labelled_report(*sel.lesson, o);
    report.status = course::LessonStatus::error;
    report.message = fmt::format(
        "cannot write the grader's logs under {}: {} ({}). The build tree must be writable",
        runs_dir(o).string(), e.code().message(), e.path1().string());
    return report;
  }
}

}  // namespace

course::LessonReport grade(const course::Selection& sel, const GradeOptions& o,
                           nlohmann::json& device) {
  return with_target_lock(sel, o, [&] {
    return o.kind == course::RunKind::sanitize ? sanitize_holding_lock(sel, o, device)
                                               : grade_holding_lock(sel, o, device);
  });
}

}  // namespace driver
