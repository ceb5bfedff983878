#include "test_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join (in format.h before fmt 11)

#include "course/config.hpp"
#include "course/text_file.hpp"
#include "grade.hpp"
#include "process.hpp"
#include "run_lock.hpp"
#include "sanitizer.hpp"

namespace driver {

namespace fs = std::filesystem;
using course::protocol::TestRecord;

// An empty report of `lesson` as graded with `o`: what every report says, whatever happens next.
course::LessonReport labelled_report(const course::Lesson& lesson, const GradeOptions& o) {
  course::LessonReport report;
  report.id = lesson.id;
  report.title = lesson.title;
  report.seed = o.seed;
  report.variant = o.variant;
  report.kind = o.kind;  // what decides whether it is recorded as progress, whatever happens next
  return report;
}

std::vector<std::string> list_tests(const std::string& exe, const std::string& filter,
                                    std::string& error) {
  const Captured c = run_capture({exe, "--gtest_list_tests", "--gtest_filter=" + filter});
  std::vector<std::string> tests;
  if (c.exit_code != 0) {
    error = fmt::format("{} --gtest_list_tests failed ({}):\n{}", exe, c.exit_code, c.output);
    return tests;
  }
  std::istringstream in(c.output);
  std::string suite;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      suite = line.substr(0, line.find(' '));  // "naive/Correct."
    } else {
      std::string name = line.substr(2);
      name = name.substr(0, name.find("  #"));  // drop "  # GetParam() = ..."
      while (!name.empty() && name.back() == ' ') name.pop_back();
      tests.push_back(suite + name);
    }
  }
  return tests;
}

// Fills `report` with a non-pass status and returns false when the lesson cannot be graded here.
bool prepare(const course::Lesson& lesson, const GradeOptions& o, course::LessonReport& report) {
  report = labelled_report(lesson, o);
  if (!lesson.ready()) {
    report.status = course::LessonStatus::error;
    report.message = fmt::format("lesson {} is planned but not written yet", lesson.id);
    return false;
  }
  if (!course::config::kHaveCuda) {
    report.status = course::LessonStatus::no_gpu;
    report.message =
        "this build has no CUDA compiler, so lessons cannot be built: install the "
        "CUDA toolkit (12 or newer), then reconfigure (cmake --preset exercises)";
    return false;
  }
  const std::string target = target_name(lesson.id, o.variant);
  if (o.build) {
    // The first build of a lesson takes a while on a small machine: say so, once, on one line.
    if (o.status_messages && !fs::exists(fs::path(o.lesson_bin_dir) / target))
      fmt::print(stderr, "{}\n", first_build_note(lesson.id, o.variant));
    std::string log;
    bool folder_broken = false;
    if (!build_target(o, target, log, &report.build_warnings, &folder_broken)) {
      report.status =
          folder_broken ? course::LessonStatus::error : course::LessonStatus::build_failed;
      report.message = build_failure_message(target, log, o.binary_dir, folder_broken);
      report.build_log = log;
      return false;
    }
  }
  if (!fs::exists(fs::path(o.lesson_bin_dir) / target)) {
    report.status = course::LessonStatus::error;
    report.message = fmt::format("{} does not exist: build it first (or drop --no-build)",
                                 (fs::path(o.lesson_bin_dir) / target).string());
    return false;
  }
  return true;
}

namespace {

// Fills `report` as "no usable GPU", with what the test process said.
void no_gpu_report(const course::Lesson& lesson, const course::protocol::ChildLog& log,
                   course::LessonReport& report) {
  report.status = course::LessonStatus::no_gpu;
  // cudaErrorInsufficientDriver is also what a machine with no NVIDIA driver at all reports.
  const std::string driver_note =
      log.no_gpu_reason.find("InsufficientDriver") != std::string::npos
          ? " (no NVIDIA driver is loaded, or it is older than the CUDA toolkit used to build)"
          : "";
  report.message =
      no_gpu_message((log.no_gpu_reason.empty() ? "the test process could not create a CUDA context"
                                                : log.no_gpu_reason) +
                         driver_note,
                     lesson.min_cc);
}

// Fills `report` as "unsupported" when a test process's device record says this GPU cannot grade
// the lesson: older than the lesson's minimum compute capability, or not the GPU the build
// folder's device images were compiled for (that process exits kExitNoGpu, which must not read as
// "no GPU").
bool unsupported_here(const course::Lesson& lesson, const nlohmann::json& record,
                      course::LessonReport& report) {
  if (!record.is_object()) return false;
  if (!course::cc_at_least(record.value("cc", "0.0"), lesson.min_cc)) {
    report.status = course::LessonStatus::unsupported;
    report.message = fmt::format("{} needs compute capability {} or newer; this GPU is {}",
                                 lesson.id, lesson.min_cc, record.value("cc", "?"));
    return true;
  }
  if (record.contains("device_image_problem")) {
    report.status = course::LessonStatus::unsupported;
    report.message = record.value("device_image_problem", "");
    return true;
  }
  return false;
}

std::uintmax_t size_of(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t n = fs::file_size(path, ec);
  return ec ? 0 : n;
}

}  // namespace

// The bytes [from, to) of the file at `path`.
std::string part_of(const std::string& path, std::uintmax_t from, std::uintmax_t to) {
  const std::string text = course::read_text(path).value_or("");
  if (from >= text.size() || to <= from) return "";
  return text.substr(from, to - from);
}

namespace {

// A hidden-test process under a wrapper (compute-sanitizer) wrote nothing, not even whether it
// found a GPU: the wrapper failed before or around it. Runs the test binary once without the
// wrapper and without any test, to tell "no usable GPU" (exit code 3, whatever the wrapper did)
// from a wrapper that cannot run here ("unavailable"). Fills `report`; always returns false.
bool wrapper_ran_nothing(const course::Lesson& lesson, const GradeOptions& o,
                         const std::string& exe, const fs::path& run_dir, const ChildEnd& end,
                         const std::string& wrapper_output, const std::string& log_path,
                         course::LessonReport& report) {
  WatchedChild probe;
  probe.report_path = (run_dir / "probe.jsonl").string();
  probe.log_path = (run_dir / "probe.log").string();
  probe.argv = {exe,
                "--report",
                probe.report_path,
                "--device",
                std::to_string(o.device),
                "--gtest_filter=-*"};  // no test: only the GPU check
  probe.test_timeout = probe.idle_timeout = 60;
  const ChildEnd probed = run_watched(probe);
  const course::protocol::ChildLog log =
      course::protocol::parse_log(course::read_text(probe.report_path).value_or(""));
  if (unsupported_here(lesson, log.device, report)) return false;
  if (log.no_gpu || (probed.exited && probed.code == course::protocol::kExitNoGpu)) {
    no_gpu_report(lesson, log, report);
    return false;
  }
  // What it said: its first "========= " lines, else its last line.
  std::vector<std::string> lines = sanitizer_findings(wrapper_output).first_lines;
  if (lines.size() > 3) lines.resize(3);
  std::istringstream out(wrapper_output);
  for (std::string line; lines.empty() && std::getline(out, line);)
    if (out.peek() == EOF && !line.empty()) lines.push_back(line);
  report.status = course::LessonStatus::unavailable;
  report.message =
      fmt::format("{} did not run the hidden tests of {} ({}){}; its output is in {}",
                  fs::path(o.wrapper.front()).filename().string(), lesson.id, describe(end),
                  lines.empty() ? "" : ": " + fmt::format("{}", fmt::join(lines, " / ")), log_path);
  return false;
}

// Seconds each step's tests spent hanging. A hung kernel costs --kernel-timeout (the harness gives
// up on it and the test ends its process) and a hung test --timeout (the grader kills it), each
// followed by a fresh process: once a step has spent GradeOptions::hang_budget that way, its
// remaining tests are not run.
class HangBudget {
 public:
  explicit HangBudget(const GradeOptions& o) : o_(o) {}
  // Counts `r`, the test that ended its process, if it hung: the grader killed it, or it ran as
  // long as the kernel timeout (the harness's wait gave up on a kernel).
  void count(const TestRecord& r, bool killed_by_grader) {
    const std::string step = course::protocol::step_of(r.name);
    if (killed_by_grader)
      hung_[step] += o_.test_timeout;
    else if (r.ms >= 1000 * o_.kernel_timeout)
      hung_[step] += r.ms / 1000;
  }
  bool spent(const std::string& test) const {
    const auto it = hung_.find(course::protocol::step_of(test));
    return it != hung_.end() && it->second >= o_.hang_budget;
  }
  std::string not_run_reason(const std::string& test) const {
    return fmt::format(
        "not run: this step's kernels already hung for {:.3g} s (the limit is {:.3g} s per "
        "step); fix the hang first",
        hung_.at(course::protocol::step_of(test)), o_.hang_budget);
  }

 private:
  const GradeOptions& o_;
  std::map<std::string, double> hung_;
};

// The watched process that runs `tests` of `exe`.
WatchedChild test_process(const std::string& exe, const std::vector<std::string>& tests,
                          const std::string& report_path, const std::string& log_path,
                          const GradeOptions& o, bool skip_profiled) {
  WatchedChild child;
  child.argv = o.wrapper;
  for (const std::string& a : std::vector<std::string>{
           exe, "--report", report_path, "--seed", std::to_string(o.seed), "--device",
           std::to_string(o.device), "--kernel-timeout", fmt::format("{}", o.kernel_timeout),
           "--gtest_filter=" + fmt::format("{}", fmt::join(tests, ":"))})
    child.argv.push_back(a);
  if (o.small_shapes_untimed) child.argv.push_back("--quick");
  if (!o.quiet_gpu_lock.empty()) {
    child.argv.push_back("--quiet-gpu-lock");
    child.argv.push_back(o.quiet_gpu_lock);
  }
  // The tests' --quick implies it.
  if (o.skip_large && !o.small_shapes_untimed) child.argv.push_back("--skip-large");
  if (skip_profiled && !o.small_shapes_untimed) child.argv.push_back("--skip-profiled");
  child.report_path = report_path;
  child.log_path = log_path;
  child.test_timeout = o.test_timeout;
  // The memcheck run beside the tests (status_messages off) waits too: the grade says it once.
  child.say_when_waiting_on_machine = o.status_messages;
  child.idle_timeout = std::max(60.0, o.test_timeout);
  child.stop = o.stop;
  // compute-sanitizer writes its findings after the tests' process has ended: wait for it.
  child.done_at_exit_record = o.wrapper.empty();
  return child;
}

// The record of `test`, which started and never ended: it took its process down.
TestRecord ended_mid_test(const std::string& test, const ChildEnd& end, const GradeOptions& o,
                          const std::string& log_path) {
  TestRecord r;
  r.name = test;
  if (end.timed_out) {
    r.status = course::TestStatus::timed_out;
    r.failures.push_back(fmt::format(
        "no result after {:.0f} s, so the grader stopped the test process. Likely cause: a "
        "kernel that never finishes (a loop without exit, or a __syncthreads() that not every "
        "thread reaches)",
        o.test_timeout));
  } else {
    r.status = course::TestStatus::crashed;
    r.failures.push_back(
        fmt::format("the test process ended in the middle of this test ({}); output in {}",
                    describe(end), log_path));
  }
  return r;
}

// Adds the records of one test process to `run` (and to `p`, the tests it started), with one for
// the test it ended in if it ended mid-test, and counts the test that ended it if it hung.
void take_records(const course::protocol::ChildLog& log, const ChildEnd& end, const GradeOptions& o,
                  ProcessRun& p, TestRun& run, HangBudget& hangs) {
  for (const TestRecord& r : log.finished) {
    run.records.push_back(r);
    p.tests.push_back(r.name);
    if (r.name == log.fatal_test) {  // a sticky error or a hung kernel ended the process
      p.ended_on = r.name;
      hangs.count(r, false);
    }
  }
  if (!log.running.empty()) {  // started, never ended: this test took the process down
    run.records.push_back(ended_mid_test(log.running, end, o, run.log_path));
    p.tests.push_back(log.running);
    p.ended_on = log.running;
    hangs.count(run.records.back(), end.timed_out);
  }
  run.processes.push_back(p);
}

}  // namespace

// Runs the tests of `steps`, a fresh process after every sticky error, crash or hang, until each
// test ran or its step spent its hang budget. Returns false with `report` filled when there is no
// GPU, the GPU is too old or not the one the build's device images are for, a wrapper cannot run
// here, the run broke down, or it was stopped.
bool run_tests(const course::Lesson& lesson, const std::vector<const course::Step*>& steps,
               const GradeOptions& o, nlohmann::json& device, course::LessonReport& report,
               TestRun& run) {
  const std::string target = target_name(lesson.id, o.variant);
  const std::string exe = (fs::path(o.lesson_bin_dir) / target).string();
  std::string filter;
  for (const course::Step* s : steps)
    filter += (filter.empty() ? "" : ":") + s->name + (o.speed_tests_only ? "/Speed.*" : "/*");
  std::string list_error;
  run.expected = list_tests(exe, filter, list_error);
  if (!list_error.empty()) {
    report.status = course::LessonStatus::error;
    report.message = list_error;
    return false;
  }

  // Each kind of run keeps its own folder, so a plain grading does not delete the logs that an
  // earlier --sanitize report points to.
  const fs::path run_dir = runs_dir(o) / target / (o.run_name.empty() ? "grade" : o.run_name);
  fs::remove_all(run_dir);
  fs::create_directories(run_dir);
  run.log_path = (run_dir / "tests.log").string();

  const auto broke_down = [&](const ChildEnd& end) {
    report.status = course::LessonStatus::error;
    report.message = fmt::format("the hidden tests of {} ended without a report ({}); output in {}",
                                 lesson.id, describe(end), run.log_path);
    return false;
  };
  // A whole lesson's --quick leaves out Nsight Compute (3 of lesson 15's 4.5 s on our H200,
  // docs/measured/H200.md, sixteenth session); a step asked for by name is profiled.
  const bool skip_profiled = o.kind == course::RunKind::quick && steps.size() > 1;
  std::set<std::string> done;
  HangBudget hangs(o);
  int busy_tries = 0;  // runs that found the GPU busy (an exclusive compute mode), see below
  bool busy = false;   // the last run found it so
  for (int n = 0;; ++n) {
    std::vector<std::string> remaining;
    for (const std::string& t : run.expected)
      if (!done.count(t) && !hangs.spent(t)) remaining.push_back(t);
    if (remaining.empty() || n > static_cast<int>(run.expected.size()) + busy_tries) break;
    const std::string report_path = (run_dir / fmt::format("run-{}.jsonl", n)).string();
    if (o.status_messages && busy)
      fmt::print(stderr,
                 "the GPU was busy (an exclusive compute mode, another process's context): "
                 "trying again ...\n");
    else if (o.status_messages)
      fmt::print(stderr, "running {} hidden test{} of {}{} ...\n", remaining.size(),
                 remaining.size() == 1 ? "" : "s", lesson.id, n ? " in a fresh process" : "");
    ProcessRun p;
    p.log_from = size_of(run.log_path);
    const ChildEnd end =
        run_watched(test_process(exe, remaining, report_path, run.log_path, o, skip_profiled));
    p.log_to = size_of(run.log_path);
    if (end.stopped) {  // GradeOptions::stop: nobody reads this run's verdict
      report.status = course::LessonStatus::error;
      report.message = "stopped: the grade no longer needed this run";
      return false;
    }
    const course::protocol::ChildLog log =
        course::protocol::parse_log(course::read_text(report_path).value_or(""));

    if (log.device.is_object()) device = log.device;
    if (unsupported_here(lesson, log.device, report)) return false;
    // A GPU in an exclusive compute mode gives one process a context at a time, and a test process
    // that has just ended (a grade run just before this one, which did not wait for its end) may
    // still hold its context for a few tenths of a second: wait and try again, twice, leaving no
    // trace of the try in the run's log and records. Not with memcheck beside the tests (the grade
    // runs them again alone instead, grade_holding_lock), nor under a wrapper (memcheck beside
    // them cannot have the GPU before they end; its findings are counted over the whole log).
    busy = log.no_gpu && o.quiet_gpu_lock.empty() && o.wrapper.empty() && busy_tries < 2 &&
           log.no_gpu_reason.find("cudaErrorDevicesUnavailable") != std::string::npos;
    if (busy) {
      ++busy_tries;
      std::error_code ignored;
      fs::resize_file(run.log_path, p.log_from, ignored);
      fs::remove(report_path, ignored);
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      continue;
    }
    if (log.no_gpu || (end.exited && end.code == course::protocol::kExitNoGpu)) {
      no_gpu_report(lesson, log, report);
      return false;
    }
    if (log.device.is_null() && log.finished.empty() && log.running.empty()) {
      if (o.wrapper.empty()) return broke_down(end);
      return wrapper_ran_nothing(lesson, o, exe, run_dir, end,
                                 part_of(run.log_path, p.log_from, p.log_to), run.log_path, report);
    }
    take_records(log, end, o, p, run, hangs);
    for (const std::string& t : p.tests) done.insert(t);
    if (end.exited && (end.code == 0 || end.code == 1)) break;  // ran to its end
    if (log.running.empty() && log.finished.empty() && log.fatal_reason.empty())
      return broke_down(end);
  }
  // Anything still missing never ran: its step hung too long, or the loop gave up after one
  // process per test.
  for (const std::string& t : run.expected)
    if (!done.count(t))
      run.records.push_back({t,
                             course::TestStatus::not_run,
                             {hangs.spent(t) ? hangs.not_run_reason(t) : "this test never ran"},
                             {},
                             0});
  return true;
}

std::vector<const course::Step*> selected_steps(const course::Selection& sel) {
  std::vector<const course::Step*> steps;
  if (sel.step)
    steps.push_back(sel.step);
  else
    for (const course::Step& s : sel.lesson->steps) steps.push_back(&s);
  return steps;
}

void decide(const course::Lesson& lesson, const std::vector<const course::Step*>& steps,
            const TestRun& run, course::LessonReport& report) {
  report.steps = course::build_steps(lesson, steps, run.expected, run.records);
  // Optional steps are excused when the whole lesson is graded, not when asked for by name; a step
  // this machine cannot grade at all (every test skipped, with its reason: too little memory, too
  // old a GPU) is excused too: it says nothing about the student's code.
  const bool whole_lesson = steps.size() > 1;
  bool pass = true;
  for (const course::StepReport& s : report.steps)
    pass &= s.status == course::StepStatus::pass || s.status == course::StepStatus::skipped ||
            (s.optional && whole_lesson);
  report.status = pass ? course::LessonStatus::pass : course::LessonStatus::fail;
}

}  // namespace driver
