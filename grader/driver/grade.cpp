#include "grade.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include <cxxabi.h>
#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join (in format.h before fmt 11)

#include "course/config.hpp"
#include "course/extensions.hpp"
#include "course/protocol.hpp"
#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;
using course::protocol::TestRecord;

namespace {

// One grading of a target at a time, from its build to its report. A second grader of the same
// target (`grader watch` beside a manual run, two terminals, ctest -j) would relink the program
// under the first one's fresh processes and delete its logs, and two timed runs on one GPU would
// disturb each other's measurements. An flock is released when its file is closed, also when the
// process dies, so a crashed grader never leaves it held.
class RunLock {
 public:
  RunLock(const fs::path& path, const std::string& what, bool progress) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // flock needs no write access
    if (fd_ < 0 || ::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;    // unlockable: run as before
    if (errno == EWOULDBLOCK && progress)
      fmt::print(stderr, "another grader is {}; waiting for it to finish ...\n", what);
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~RunLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

// An empty report of `lesson` as graded with `o`: what every report says, whatever happens next.
course::LessonReport labelled_report(const course::Lesson& lesson, const GradeOptions& o) {
  course::LessonReport report;
  report.id = lesson.id;
  report.title = lesson.title;
  report.seed = o.seed;
  report.variant = o.variant;
  report.quick = !o.memcheck;  // never recorded as progress, whatever happens next
  return report;
}

// grader-runs/ of the build tree: logs, reports and the locks.
fs::path runs_dir(const GradeOptions& o) {
  return fs::path(o.binary_dir) / "grader-runs";
}

}  // namespace

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

std::string target_name(const std::string& lesson, const std::string& variant) {
  return variant.empty() ? "grade_" + lesson : "grade_" + lesson + "__" + variant;
}

namespace {

// The symbol of a linker's "undefined reference" line, demangled; "" for any other line. ld:
// "...: undefined reference to `transpose::transpose_tiled(float const*, float*, int, int)'";
// nvlink (-rdc): "nvlink error   : Undefined reference to '_Z9load_tilePKfi' in 'dev.o'".
std::string undefined_symbol(const std::string& line) {
  for (const std::string marker : {"undefined reference to `", "Undefined reference to '"}) {
    const auto at = line.find(marker);
    if (at == std::string::npos) continue;
    const auto from = at + marker.size();
    const auto to = line.find('\'', from);
    if (to == std::string::npos) return "";
    const std::string symbol = line.substr(from, to - from);
    int status = -1;
    char* plain = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    const std::string out = status == 0 && plain ? plain : symbol;
    std::free(plain);
    return out;
  }
  return "";
}

}  // namespace

std::string compiler_errors(const std::string& out, std::size_t max_lines) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<std::string> kept;
  std::vector<std::string> missing;  // symbols the linker found no definition of
  std::size_t keep_after = 0;
  for (const std::string& l : lines) {
    const std::string symbol = undefined_symbol(l);
    if (!symbol.empty() && std::find(missing.begin(), missing.end(), symbol) == missing.end())
      missing.push_back(symbol);
    // ld says where the reference is ("...o: in function `launch_transpose(...)':") just before.
    const bool err = l.find("error") != std::string::npos || l.find("Error") != std::string::npos ||
                     !symbol.empty() || l.find(": in function `") != std::string::npos;
    if (err) keep_after = 2;
    if (err || keep_after > 0) {
      if (kept.size() < max_lines) kept.push_back(l);
      if (!err) --keep_after;
    }
  }
  if (kept.empty()) {  // no recognizable error line: show the tail
    const std::size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
    kept.assign(lines.begin() + static_cast<long>(from), lines.end());
  }
  std::string s;
  if (!missing.empty()) {
    s = "the link failed: a kernel the lesson's header declares is missing from your file: did "
        "you delete or rename it? (Or a function you call is declared but never defined.) No "
        "definition of:\n";
    for (const std::string& m : missing) s += "  " + m + "\n";
  }
  for (const std::string& l : kept) s += l + "\n";
  return s;
}

namespace {

bool in_student_files(const std::string& line) {
  return line.find("exercises/") != std::string::npos ||
         line.find("solutions/") != std::string::npos;
}

// True when the build compiled one of the student's files (its warnings are then in the output).
bool compiled_student_file(const std::string& build_output) {
  std::istringstream in(build_output);
  for (std::string l; std::getline(in, l);)
    if (l.find("Building") != std::string::npos && in_student_files(l)) return true;
  return false;
}

}  // namespace

std::string student_warnings(const std::string& build_output, const std::string& source_dir) {
  const std::string prefix = source_dir.empty() ? "" : source_dir + "/";
  std::string out;
  std::istringstream in(build_output);
  int context = 0;  // lines still to keep under a warning
  for (std::string l; std::getline(in, l);) {
    if (l.find("warning") != std::string::npos && in_student_files(l) &&
        l.find("Building") == std::string::npos) {
      if (!prefix.empty())
        for (auto at = l.find(prefix); at != std::string::npos; at = l.find(prefix))
          l.erase(at, prefix.size());
      out += l + "\n";
      context = 3;
    } else if (context > 0 && !l.empty() && l[0] == ' ') {
      out += l + "\n";
      --context;
    } else {
      context = 0;
    }
  }
  return out;
}

std::string first_build_note(const std::string& lesson, const std::string& variant) {
  // From CPU time measured on 2 cores (docs/measured/setup-2core.md): lesson 01's first build
  // with the harness it shares with every lesson took 52 s of CPU time for three architectures,
  // 37 s of it host code compiled once (about 20 s on 2 cores) and about 3 s per architecture in
  // the hidden tests' and kernels' device code, which nvcc compiles once per architecture. A
  // later lesson reuses the harness, hence "up to".
  constexpr int kFirstBuildSecondsBase = 20;
  constexpr int kFirstBuildSecondsPerArchitecture = 3;
  std::vector<std::string> archs;
  std::istringstream in(course::config::kCudaArchitectures);
  for (std::string a; std::getline(in, a, ';');)
    if (!a.empty()) archs.push_back("sm_" + a.substr(0, a.find('-')));
  std::string list;
  for (std::size_t i = 0; i < archs.size(); ++i)
    list += (i == 0 ? "" : i + 1 == archs.size() ? " and " : ", ") + archs[i];
  const int seconds =
      kFirstBuildSecondsBase + kFirstBuildSecondsPerArchitecture * static_cast<int>(archs.size());
  return fmt::format(
      "building {}'s hidden tests{} for {} (first build of this lesson: up to about {} s on 2 "
      "cores) ...",
      lesson, variant.empty() ? "" : " with the " + variant + " kernels",
      list.empty() ? "this GPU" : list, seconds);
}

bool build_target(const GradeOptions& o, const std::string& target, std::string& log,
                  std::string* warnings) {
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  // Two builds in one build tree at once (two lessons graded side by side) can corrupt it.
  std::error_code ignored;
  fs::create_directories(runs_dir(o), ignored);
  const RunLock lock(runs_dir(o) / "build.lock", "building in " + o.binary_dir, o.progress);
  const Captured c = run_capture({course::config::kCMake, "--build", o.binary_dir, "--target",
                                  target, "--parallel", std::to_string(jobs)});
  if (c.exit_code == 0) {
    if (!warnings) return true;
    const fs::path saved = runs_dir(o) / (target + ".warnings");
    if (compiled_student_file(c.output)) {
      *warnings = student_warnings(c.output, course::config::kSourceDir);
      course::write_text_atomically(saved.string(), *warnings);
    } else {
      *warnings = course::read_text(saved.string()).value_or("");
    }
    return true;
  }
  const fs::path full = fs::path(o.binary_dir) / "grader-runs" / (target + ".build.log");
  fs::create_directories(full.parent_path());
  std::ofstream(full) << c.output;
  log = compiler_errors(c.output) + fmt::format("(full build log: {})\n", full.string());
  return false;
}

std::string build_failure_message(const std::string& target, const std::string& build_output) {
  if (build_output.find("course configure error:") != std::string::npos)
    return fmt::format("{} cannot be built: a file the lesson needs is missing, as the build says:",
                       target);
  if (build_output.find("ndefined reference") != std::string::npos)
    return fmt::format("{} did not link; the linker said:", target);
  return fmt::format("{} did not compile; the compiler said:", target);
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

namespace {

// One hidden-test process of a run.
struct ProcessRun {
  std::uintmax_t log_from = 0, log_to = 0;  ///< its part of the run's log, in bytes
  std::vector<std::string> tests;           ///< the tests it started, in order
  std::string ended_on;  ///< the test whose sticky error, crash or hang ended it ("" = none)
};

// The hidden tests of one target, run to the end in watched processes.
struct TestRun {
  std::vector<std::string> expected;  ///< every test the run should produce
  std::vector<TestRecord> records;
  std::string log_path;  ///< the processes' stdout and stderr
  std::vector<ProcessRun> processes;
};

// Fills `report` with a non-pass status and returns false when the lesson cannot be graded here.
bool prepare(const course::Lesson& lesson, const GradeOptions& o, course::LessonReport& report) {
  report = labelled_report(lesson, o);
  if (!lesson.ready()) {
    report.status = "error";
    report.message = fmt::format("lesson {} is planned but not written yet", lesson.id);
    return false;
  }
  if (!course::config::kHaveCuda) {
    report.status = "no_gpu";
    report.message =
        "this build has no CUDA compiler, so lessons cannot be built: install the "
        "CUDA toolkit (12 or newer), then reconfigure (cmake --preset exercises)";
    return false;
  }
  const std::string target = target_name(lesson.id, o.variant);
  if (o.build) {
    // The first build of a lesson takes a while on a small machine: say so, once, on one line.
    if (o.progress && !fs::exists(fs::path(o.lesson_bin_dir) / target))
      fmt::print(stderr, "{}\n", first_build_note(lesson.id, o.variant));
    std::string log;
    if (!build_target(o, target, log, &report.build_warnings)) {
      report.status = "build_failed";
      report.message = build_failure_message(target, log);
      report.build_log = log;
      return false;
    }
  }
  if (!fs::exists(fs::path(o.lesson_bin_dir) / target)) {
    report.status = "error";
    report.message = fmt::format("{} does not exist: build it first (or drop --no-build)",
                                 (fs::path(o.lesson_bin_dir) / target).string());
    return false;
  }
  return true;
}

// Fills `report` as "no usable GPU", with what the test process said.
void no_gpu_report(const course::Lesson& lesson, const course::protocol::ChildLog& log,
                   course::LessonReport& report) {
  report.status = "no_gpu";
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

std::uintmax_t size_of(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t n = fs::file_size(path, ec);
  return ec ? 0 : n;
}

// The bytes [from, to) of the file at `path`.
std::string part_of(const std::string& path, std::uintmax_t from, std::uintmax_t to) {
  const std::string text = course::read_text(path).value_or("");
  if (from >= text.size() || to <= from) return "";
  return text.substr(from, to - from);
}

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
  report.status = "unavailable";
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
                          const GradeOptions& o) {
  WatchedChild child;
  child.argv = o.wrapper;
  for (const std::string& a : std::vector<std::string>{
           exe, "--report", report_path, "--seed", std::to_string(o.seed), "--device",
           std::to_string(o.device), "--kernel-timeout", fmt::format("{}", o.kernel_timeout),
           "--gtest_filter=" + fmt::format("{}", fmt::join(tests, ":"))})
    child.argv.push_back(a);
  if (o.quick) child.argv.push_back("--quick");
  if (o.skip_large && !o.quick) child.argv.push_back("--skip-large");  // --quick implies it
  child.report_path = report_path;
  child.log_path = log_path;
  child.test_timeout = o.test_timeout;
  child.idle_timeout = std::max(60.0, o.test_timeout);
  return child;
}

// The record of `test`, which started and never ended: it took its process down.
TestRecord ended_mid_test(const std::string& test, const ChildEnd& end, const GradeOptions& o,
                          const std::string& log_path) {
  TestRecord r;
  r.name = test;
  if (end.timed_out) {
    r.status = "timed_out";
    r.failures.push_back(fmt::format(
        "no result after {:.0f} s, so the grader stopped the test process. Likely cause: a "
        "kernel that never finishes (a loop without exit, or a __syncthreads() that not every "
        "thread reaches)",
        o.test_timeout));
  } else {
    r.status = "crashed";
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

// Runs the tests of `steps`, a fresh process after every sticky error, crash or hang, until each
// test ran or its step spent its hang budget. Returns false with `report` filled when there is no
// GPU, the GPU is too old, a wrapper cannot run here, or the run broke down.
bool run_tests(const course::Lesson& lesson, const std::vector<const course::Step*>& steps,
               const GradeOptions& o, nlohmann::json& device, course::LessonReport& report,
               TestRun& run) {
  const std::string target = target_name(lesson.id, o.variant);
  const std::string exe = (fs::path(o.lesson_bin_dir) / target).string();
  std::string filter;
  for (const course::Step* s : steps) filter += (filter.empty() ? "" : ":") + s->name + "/*";
  std::string list_error;
  run.expected = list_tests(exe, filter, list_error);
  if (!list_error.empty()) {
    report.status = "error";
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
    report.status = "error";
    report.message = fmt::format("the hidden tests of {} ended without a report ({}); output in {}",
                                 lesson.id, describe(end), run.log_path);
    return false;
  };
  std::set<std::string> done;
  HangBudget hangs(o);
  for (int n = 0;; ++n) {
    std::vector<std::string> remaining;
    for (const std::string& t : run.expected)
      if (!done.count(t) && !hangs.spent(t)) remaining.push_back(t);
    if (remaining.empty() || n > static_cast<int>(run.expected.size())) break;
    const std::string report_path = (run_dir / fmt::format("run-{}.jsonl", n)).string();
    if (o.progress)
      fmt::print(stderr, "running {} hidden test{} of {}{} ...\n", remaining.size(),
                 remaining.size() == 1 ? "" : "s", lesson.id, n ? " in a fresh process" : "");
    ProcessRun p;
    p.log_from = size_of(run.log_path);
    const ChildEnd end = run_watched(test_process(exe, remaining, report_path, run.log_path, o));
    p.log_to = size_of(run.log_path);
    const course::protocol::ChildLog log =
        course::protocol::parse_log(course::read_text(report_path).value_or(""));

    if (log.no_gpu || (end.exited && end.code == course::protocol::kExitNoGpu)) {
      no_gpu_report(lesson, log, report);
      return false;
    }
    if (log.device.is_null() && log.finished.empty() && log.running.empty()) {
      if (o.wrapper.empty()) return broke_down(end);
      return wrapper_ran_nothing(lesson, o, exe, run_dir, end,
                                 part_of(run.log_path, p.log_from, p.log_to), run.log_path, report);
    }
    if (log.device.is_object()) device = log.device;
    if (device.is_object() && !course::cc_at_least(device.value("cc", "0.0"), lesson.min_cc)) {
      report.status = "unsupported";
      report.message = fmt::format("{} needs compute capability {} or newer; this GPU is {}",
                                   lesson.id, lesson.min_cc, device.value("cc", "?"));
      return false;
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
                             "not_run",
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
    pass &= s.status == "pass" || s.status == "skipped" || (s.optional && whole_lesson);
  report.status = pass ? "pass" : "fail";
}

}  // namespace

std::string find_sanitizer() {
  if (const char* chosen = std::getenv("GRADER_COMPUTE_SANITIZER"); chosen && *chosen)
    return chosen;
  std::vector<fs::path> candidates;
  if (const fs::path bin = fs::path(course::config::kCudaCompiler).parent_path(); !bin.empty())
    // A full toolkit has bin/compute-sanitizer and the program itself in compute-sanitizer/.
    candidates = {bin / "compute-sanitizer",
                  bin.parent_path() / "compute-sanitizer" / "compute-sanitizer"};
  candidates.push_back("/usr/local/cuda/bin/compute-sanitizer");
  std::error_code ec;
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p, ec)) return p.string();
  const Captured which = run_capture({"sh", "-c", "command -v compute-sanitizer"});
  std::string path = which.output.substr(0, which.output.find('\n'));
  return which.exit_code == 0 ? path : "";
}

std::vector<std::string> other_sanitizers() {
  std::vector<std::string> found;
  std::error_code ec;
  for (const fs::path root : {"/usr/local", "/opt", "/opt/nvidia"})
    for (const fs::directory_entry& d : fs::directory_iterator(root, ec)) {
      const std::string name = d.path().filename().string();
      if (name.rfind("cuda", 0) != 0 && name.rfind("hpc_sdk", 0) != 0) continue;
      const fs::path p = d.path() / "bin" / "compute-sanitizer";
      if (fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) found.push_back(p.string());
    }
  std::sort(found.begin(), found.end());
  return found;
}

std::string missing_sanitizer_reason(const std::string& toolkit_bin,
                                     const std::vector<std::string>& elsewhere) {
  if (!elsewhere.empty())
    return fmt::format(
        "compute-sanitizer is installed at {}, but not with this build's CUDA toolkit ({}) nor on "
        "PATH: put its folder on PATH (export PATH={}:$PATH) or set "
        "GRADER_COMPUTE_SANITIZER={}",
        elsewhere.front(), toolkit_bin, fs::path(elsewhere.front()).parent_path().string(),
        elsewhere.front());
  return fmt::format(
      "compute-sanitizer is not installed: the CUDA toolkit in {} has none next to nvcc, and "
      "there is none on PATH. It is part of the full CUDA toolkit (NVIDIA's installer, or the "
      "cuda-sanitizer-<version> package of NVIDIA's repository, e.g. cuda-sanitizer-13-0)",
      toolkit_bin.empty() ? "(none found)" : toolkit_bin);
}

std::string usable_sanitizer(const GradeOptions& o, std::string& why) {
  const std::string path = o.sanitizer.empty() ? find_sanitizer() : o.sanitizer;
  if (!path.empty() && ::access(path.c_str(), X_OK) == 0) return path;
  why = path.empty() ? missing_sanitizer_reason(
                           fs::path(course::config::kCudaCompiler).parent_path().string(),
                           other_sanitizers())
                     : fmt::format("compute-sanitizer {} is not an executable file", path);
  return "";
}

SanitizerFindings sanitizer_findings(const std::string& log) {
  SanitizerFindings f;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    // memcheck, synccheck, initcheck: "ERROR SUMMARY: N errors"; racecheck:
    // "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)".
    if (const auto at = line.find("ERROR SUMMARY: "); at != std::string::npos) {
      f.errors += std::atoi(line.c_str() + at + 15);
      continue;
    }
    if (const auto at = line.find("RACECHECK SUMMARY: "); at != std::string::npos) {
      if (const auto paren = line.find('(', at); paren != std::string::npos)
        f.errors += std::atoi(line.c_str() + paren + 1);
      continue;
    }
    if (line.rfind("========= ", 0) != 0 || line.find("COMPUTE-SANITIZER") != std::string::npos)
      continue;
    const std::string text = line.substr(10);
    if (text.find_first_not_of(' ') == std::string::npos) continue;
    if (f.first_lines.size() < 8) f.first_lines.push_back(text);
  }
  return f;
}

namespace {

// The hidden tests under compute-sanitizer `tool`: small shapes (quick mode), untimed, no
// rebuild, with time limits that allow for its slowdown.
GradeOptions under_sanitizer(const GradeOptions& base, const std::string& sanitizer,
                             const std::string& tool) {
  GradeOptions o = base;
  o.build = false;
  o.quick = true;
  o.kernel_timeout = std::max(o.kernel_timeout, 60.0);  // sanitizers slow kernels down a lot
  o.test_timeout = std::max(o.test_timeout, 600.0);
  o.wrapper = {sanitizer, "--tool", tool, "--error-exitcode", "97", "--print-limit", "10"};
  if (tool == "racecheck") o.wrapper.insert(o.wrapper.end(), {"--racecheck-report", "all"});
  // Red zones after every allocation: a read just past one buffer would otherwise land in the
  // next one, which memcheck counts as valid memory.
  if (tool == "memcheck") o.wrapper.insert(o.wrapper.end(), {"--padding", "4096"});
  return o;
}

// compute-sanitizer `tool`'s verdict on `step` as one more test, "<step>/compute-sanitizer.<tool>":
// passed when it found nothing; else failed, with the error count, `why` and its first lines.
TestRecord tool_record(const std::string& step, const std::string& tool, const SanitizerFindings& f,
                       const std::string& log_path, const std::string& why) {
  TestRecord r;
  r.name = step + "/compute-sanitizer." + tool;
  r.status = f.errors == 0 ? "passed" : "failed";
  if (f.errors == 0) return r;
  std::string text = fmt::format("compute-sanitizer {} found {} error{} (full output: {}).{}", tool,
                                 f.errors, f.errors == 1 ? "" : "s", log_path, why);
  text += " Its first lines:";
  for (const std::string& l : f.first_lines) text += "\n  " + l;
  r.failures.push_back(text);
  return r;
}

void add_findings(SanitizerFindings& to, const SanitizerFindings& f) {
  to.errors += f.errors;
  for (const std::string& l : f.first_lines)
    if (to.first_lines.size() < 8) to.first_lines.push_back(l);
}

// memcheck's findings per step of `run`. memcheck reports the bad accesses of a launch and then
// makes the launch fail (64 bad writes in one launch gave 64 reports on the H200); the test then
// fails with a sticky error that ends its process, so a process's findings belong to the
// step of the test that ended it. The findings of a process that no test ended (errors that stop
// no kernel, such as a failed CUDA call) belong to the steps of the tests it ran: to that step if
// there is one; if there are several (or none) they cannot be told apart, and those steps (or all
// of `steps`) go to `unclear`.
std::map<std::string, SanitizerFindings> findings_by_step(
    const TestRun& run, const std::vector<const course::Step*>& steps,
    std::set<std::string>& unclear) {
  std::map<std::string, SanitizerFindings> found;
  for (const ProcessRun& p : run.processes) {
    const SanitizerFindings f = sanitizer_findings(part_of(run.log_path, p.log_from, p.log_to));
    if (f.errors == 0) continue;
    std::set<std::string> of;
    if (!p.ended_on.empty())
      of.insert(course::protocol::step_of(p.ended_on));
    else
      for (const std::string& t : p.tests) of.insert(course::protocol::step_of(t));
    if (of.empty())
      for (const course::Step* s : steps) of.insert(s->name);
    if (of.size() == 1)
      add_findings(found[*of.begin()], f);
    else
      unclear.insert(of.begin(), of.end());
  }
  return found;
}

// What a lesson's report says when the grade's memcheck stage did not run.
constexpr const char* kGradedWithoutMemcheck =
    ". The steps were graded on their tests and gates only";

// What the default grade's memcheck stage adds to a lesson's report.
struct MemcheckStage {
  TestRun checks;  ///< one "<step>/compute-sanitizer.memcheck" record per step checked
  std::map<std::string, std::string> verdict;  ///< StepReport::memcheck per step
};

// The verdict and record of memcheck on `step`, from its findings and from how the step's tests
// did under it.
std::string memcheck_verdict(const std::string& step, const SanitizerFindings& f,
                             const std::vector<TestRecord>& under, const std::string& log_path,
                             TestRecord& record) {
  std::vector<const TestRecord*> broken;  // tests of `step` that passed before, not under it
  for (const TestRecord& r : under)
    if (course::protocol::step_of(r.name) == step && r.status != "passed" && r.status != "skipped")
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
  if (f.errors > 0) return "errors";
  if (broken.empty()) return "clean";
  const TestRecord& first = *broken.front();
  record.status = "failed";
  record.failures.push_back(fmt::format(
      "compute-sanitizer memcheck reported no error, but under it {} test{} that passed without "
      "it did not (first: {} [{}]: {}). A kernel whose result depends on timing or on memory it "
      "never wrote (a race, an uninitialized read) behaves this way. Output in {}",
      broken.size(), broken.size() == 1 ? "" : "s", first.name, first.status,
      first.failures.empty() ? "" : first.failures.front(), log_path));
  return "tests_failed";
}

// "errors in naive (failed); no errors in tiled, tiled_padded (compute-sanitizer memcheck ...)".
std::string memcheck_summary(const std::map<std::string, std::string>& verdict,
                             const std::vector<const course::Step*>& checked) {
  std::map<std::string, std::vector<std::string>> by;
  for (const course::Step* s : checked) by[verdict.at(s->name)].push_back(s->name);
  std::vector<std::string> parts;
  if (by.count("errors"))
    parts.push_back("errors in " + fmt::format("{}", fmt::join(by["errors"], ", ")) + " (failed)");
  if (by.count("tests_failed"))
    parts.push_back("tests failed under it in " +
                    fmt::format("{}", fmt::join(by["tests_failed"], ", ")) + " (failed)");
  if (by.count("clean"))
    parts.push_back("no errors in " + fmt::format("{}", fmt::join(by["clean"], ", ")));
  return fmt::format("{}", fmt::join(parts, "; ")) +
         " (compute-sanitizer memcheck on the small shapes of the steps that passed their tests "
         "and gate)";
}

// Whether memcheck can run after this grade; if not, the lesson's memcheck fields say why.
// `sanitizer` receives the compute-sanitizer to run.
bool memcheck_can_run(const GradeOptions& o, bool any_passed, course::LessonReport& report,
                      std::string& sanitizer) {
  if (!o.memcheck) {
    report.memcheck = "skipped";
    report.memcheck_note =
        "not run (--quick), and this grade is not recorded in your progress: grade without "
        "--quick to pass the steps for good";
    return false;
  }
  if (!any_passed) {
    report.memcheck = "not_needed";
    return false;
  }
  std::string why;
  sanitizer = usable_sanitizer(o, why);
  if (sanitizer.empty()) {
    report.memcheck = "unavailable";
    report.memcheck_note = "not run: " + why + kGradedWithoutMemcheck;
    return false;
  }
  return true;
}

// What memcheck found per step: its findings, the step's tests under it, and the log they are in.
struct UnderMemcheck {
  std::map<std::string, SanitizerFindings> found;
  std::map<std::string, std::vector<TestRecord>> records;
  std::map<std::string, std::string> log;
};

// Runs the tests of `todo` under memcheck (options `m`): once for all of them, then once more for
// each step whose findings could not be told apart from another's. Returns false with `why` when
// compute-sanitizer did not run them.
bool run_memcheck(const course::Lesson& lesson, const std::vector<const course::Step*>& todo,
                  GradeOptions m, UnderMemcheck& out, std::string& why) {
  TestRun run;
  nlohmann::json device;
  course::LessonReport broke = labelled_report(lesson, m);
  m.run_name = "memcheck";
  if (!run_tests(lesson, todo, m, device, broke, run)) {
    why = broke.message;
    return false;
  }
  std::set<std::string> unclear;
  out.found = findings_by_step(run, todo, unclear);
  for (const TestRecord& r : run.records)
    out.records[course::protocol::step_of(r.name)].push_back(r);
  for (const course::Step* s : todo) {
    out.log[s->name] = run.log_path;
    if (!unclear.count(s->name)) continue;
    m.run_name = "memcheck-" + s->name;
    TestRun alone;
    if (!run_tests(lesson, {s}, m, device, broke, alone)) {
      why = broke.message;
      return false;
    }
    out.found[s->name] = sanitizer_findings(course::read_text(alone.log_path).value_or(""));
    out.records[s->name] = alone.records;
    out.log[s->name] = alone.log_path;
  }
  return true;
}

// The default grade's last stage: compute-sanitizer memcheck on the small shapes of the steps
// that passed their tests and gate, all in one run (a fresh process only after a finding). Sets
// the lesson's memcheck fields; returns each checked step's record and every step's verdict.
MemcheckStage memcheck_passed_steps(const course::Lesson& lesson, const GradeOptions& o,
                                    course::LessonReport& report) {
  MemcheckStage stage;
  std::vector<const course::Step*> todo;
  std::vector<std::string> names;
  for (const course::StepReport& s : report.steps) {
    stage.verdict[s.name] = "not_run";
    if (s.status != "pass") continue;
    todo.push_back(lesson.find_step(s.name));
    names.push_back(s.name);
  }
  std::string sanitizer, why;
  if (!memcheck_can_run(o, !todo.empty(), report, sanitizer)) return stage;
  if (o.progress)
    fmt::print(stderr, "compute-sanitizer memcheck on the small shapes of {} ...\n",
               fmt::format("{}", fmt::join(names, ", ")));
  UnderMemcheck under;
  if (!run_memcheck(lesson, todo, under_sanitizer(o, sanitizer, "memcheck"), under, why)) {
    report.memcheck = "failed";
    report.memcheck_note = "not run: " + why + kGradedWithoutMemcheck;
    return stage;
  }
  for (const course::Step* s : todo) {
    TestRecord record;
    stage.verdict[s->name] = memcheck_verdict(s->name, under.found[s->name], under.records[s->name],
                                              under.log[s->name], record);
    stage.checks.expected.push_back(record.name);
    stage.checks.records.push_back(record);
  }
  report.memcheck = "ran";
  report.memcheck_note = memcheck_summary(stage.verdict, todo);
  return stage;
}

course::LessonReport grade_holding_lock(const course::Selection& sel, const GradeOptions& o,
                                        nlohmann::json& device) {
  course::LessonReport report;
  if (!prepare(*sel.lesson, o, report)) return report;
  const std::vector<const course::Step*> steps = selected_steps(sel);
  TestRun run;
  if (!run_tests(*sel.lesson, steps, o, device, report, run)) return report;
  decide(*sel.lesson, steps, run, report);
  const MemcheckStage stage = memcheck_passed_steps(*sel.lesson, o, report);
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
    if (s.memcheck == "errors")
      s.reason =
          "every test passed, but compute-sanitizer memcheck found errors on the small shapes "
          "(an access outside an allocation, or a misaligned one: the output was right by luck)";
    else if (s.memcheck == "tests_failed")
      s.reason =
          "every test passed, but some failed when run again under compute-sanitizer memcheck";
  }
  return report;
}

course::LessonReport sanitize_holding_lock(const course::Selection& sel,
                                           const GradeOptions& options,
                                           const std::vector<std::string>& requested,
                                           nlohmann::json& device) {
  course::LessonReport report;
  if (!prepare(*sel.lesson, options, report)) return report;
  std::string why;
  const std::string sanitizer = usable_sanitizer(options, why);
  if (sanitizer.empty()) {
    report.status = "unavailable";
    report.message = why + ", or grade without --sanitize";
    return report;
  }
  std::vector<std::string> tools;  // "memcheck,memcheck" runs it once: one test per tool
  for (const std::string& t : requested)
    if (std::find(tools.begin(), tools.end(), t) == tools.end()) tools.push_back(t);
  const std::vector<const course::Step*> steps = selected_steps(sel);
  TestRun all;       // the quick correctness tests (from the first tool's run)
  TestRun findings;  // one test per tool and step, listed first: it says why the others failed
  for (std::size_t i = 0; i < tools.size(); ++i) {
    GradeOptions o = under_sanitizer(options, sanitizer, tools[i]);
    for (const course::Step* step : steps) {
      if (o.progress)
        fmt::print(stderr, "compute-sanitizer {} on {}.{} ...\n", tools[i], sel.lesson->id,
                   step->name);
      // A folder per tool and step: the report's "output in ..." must still exist at the end.
      o.run_name = tools[i] + "-" + step->name;
      TestRun run;
      if (!run_tests(*sel.lesson, {step}, o, device, report, run)) return report;
      if (i == 0) {
        all.expected.insert(all.expected.end(), run.expected.begin(), run.expected.end());
        all.records.insert(all.records.end(), run.records.begin(), run.records.end());
      }
      // memcheck makes a launch with bad accesses fail, so the tests whose kernel made one fail
      // with cudaErrorLaunchFailure: say so, or the student chases the wrong symptom.
      const TestRecord r = tool_record(
          step->name, tools[i], sanitizer_findings(course::read_text(run.log_path).value_or("")),
          run.log_path,
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
    const RunLock lock(runs_dir(o) / (target + ".lock"), "grading " + target, o.progress);
    return body();
  } catch (const fs::filesystem_error& e) {
    course::LessonReport report = labelled_report(*sel.lesson, o);
    report.status = "error";
    report.message = fmt::format(
        "cannot write the grader's logs under {}: {} ({}). The build tree must be writable",
        runs_dir(o).string(), e.code().message(), e.path1().string());
    return report;
  }
}

}  // namespace

course::LessonReport grade(const course::Selection& sel, const GradeOptions& o,
                           nlohmann::json& device) {
  return with_target_lock(sel, o, [&] { return grade_holding_lock(sel, o, device); });
}

course::LessonReport sanitize(const course::Selection& sel, const GradeOptions& o,
                              const std::vector<std::string>& tools, nlohmann::json& device) {
  return with_target_lock(sel, o, [&] { return sanitize_holding_lock(sel, o, tools, device); });
}

}  // namespace driver
