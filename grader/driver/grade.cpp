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
#include <set>
#include <sstream>
#include <thread>

#include <cxxabi.h>
#include <fmt/format.h>

#include "course/config.hpp"
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
  return report;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// grader-runs/ of the build tree: logs, reports and the locks.
fs::path runs_dir(const GradeOptions& o) {
  return fs::path(o.binary_dir) / "grader-runs";
}

}  // namespace

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

bool build_target(const GradeOptions& o, const std::string& target, std::string& log) {
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  // Two builds in one build tree at once (two lessons graded side by side) can corrupt it.
  std::error_code ignored;
  fs::create_directories(runs_dir(o), ignored);
  const RunLock lock(runs_dir(o) / "build.lock", "building in " + o.binary_dir, o.progress);
  const Captured c = run_capture({course::config::kCMake, "--build", o.binary_dir, "--target",
                                  target, "--parallel", std::to_string(jobs)});
  if (c.exit_code == 0) return true;
  const fs::path full = fs::path(o.binary_dir) / "grader-runs" / (target + ".build.log");
  fs::create_directories(full.parent_path());
  std::ofstream(full) << c.output;
  log = compiler_errors(c.output) + fmt::format("(full build log: {})\n", full.string());
  return false;
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
      suite = line.substr(0, line.find(' '));  // "naive/TransposeCorrect."
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

// The hidden tests of one target, run to the end in watched processes.
struct TestRun {
  std::vector<std::string> expected;  ///< every test the run should produce
  std::vector<TestRecord> records;
  std::string log_path;  ///< the processes' stdout and stderr
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
    if (o.progress) fmt::print(stderr, "building {} ...\n", target);
    std::string log;
    if (!build_target(o, target, log)) {
      report.status = "build_failed";
      report.message = fmt::format("{} did not compile; the compiler said:", target);
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

// Runs the tests of `steps`, a fresh process after every sticky error, crash or hang. Returns
// false with `report` filled when there is no GPU, the GPU is too old, or the run broke down.
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

  std::set<std::string> done;
  for (int n = 0; done.size() < run.expected.size() && n <= static_cast<int>(run.expected.size());
       ++n) {
    std::vector<std::string> remaining;
    for (const std::string& t : run.expected)
      if (!done.count(t)) remaining.push_back(t);
    const std::string report_path = (run_dir / fmt::format("run-{}.jsonl", n)).string();
    WatchedChild child;
    child.argv = o.wrapper;
    for (const std::string& a : std::vector<std::string>{
             exe, "--report", report_path, "--seed", std::to_string(o.seed), "--device",
             std::to_string(o.device), "--kernel-timeout", fmt::format("{}", o.kernel_timeout),
             "--gtest_filter=" + join(remaining, ":")})
      child.argv.push_back(a);
    if (o.quick) child.argv.push_back("--quick");
    child.report_path = report_path;
    child.log_path = run.log_path;
    child.test_timeout = o.test_timeout;
    child.idle_timeout = std::max(60.0, o.test_timeout);
    if (o.progress)
      fmt::print(stderr, "running {} hidden test{} of {}{} ...\n", remaining.size(),
                 remaining.size() == 1 ? "" : "s", lesson.id, n ? " in a fresh process" : "");
    const ChildEnd end = run_watched(child);
    const course::protocol::ChildLog log =
        course::protocol::parse_log(course::read_text(report_path).value_or(""));

    if (log.no_gpu || (end.exited && end.code == course::protocol::kExitNoGpu)) {
      report.status = "no_gpu";
      // cudaErrorInsufficientDriver is also what a machine with no NVIDIA driver at all reports.
      const std::string driver_note =
          log.no_gpu_reason.find("InsufficientDriver") != std::string::npos
              ? " (no NVIDIA driver is loaded, or it is older than the CUDA toolkit used to build)"
              : "";
      report.message = fmt::format(
          "no usable CUDA GPU: {}. Grading needs an NVIDIA GPU of compute capability {} or newer; "
          "`grader`, `grader hint`, `grader quiz` and `grader sim` work without one",
          (log.no_gpu_reason.empty() ? "the test process could not create a CUDA context"
                                     : log.no_gpu_reason) +
              driver_note,
          lesson.min_cc.empty() ? "7.5" : lesson.min_cc);
      return false;
    }
    if (log.device.is_object()) device = log.device;
    if (device.is_object() && !course::cc_at_least(device.value("cc", "0.0"), lesson.min_cc)) {
      report.status = "unsupported";
      report.message = fmt::format("{} needs compute capability {} or newer; this GPU is {}",
                                   lesson.id, lesson.min_cc, device.value("cc", "?"));
      return false;
    }
    for (const TestRecord& r : log.finished) {
      run.records.push_back(r);
      done.insert(r.name);
    }
    if (!log.running.empty()) {  // started, never ended: this test took the process down
      TestRecord r;
      r.name = log.running;
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
                        describe(end), run.log_path));
      }
      run.records.push_back(r);
      done.insert(r.name);
    }
    if (end.exited && (end.code == 0 || end.code == 1)) break;  // ran to its end
    if (log.running.empty() && log.finished.empty() && log.fatal_reason.empty()) {
      report.status = "error";
      report.message =
          fmt::format("the hidden tests of {} ended without a report ({}); output in {}", lesson.id,
                      describe(end), run.log_path);
      return false;
    }
  }
  // Anything still missing never ran (the loop gives up after one process per test).
  for (const std::string& t : run.expected)
    if (!done.count(t)) run.records.push_back({t, "not_run", {"this test never ran"}, {}, 0});
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
  // Optional steps are excused when the whole lesson is graded, not when asked for by name.
  const bool whole_lesson = steps.size() > 1;
  bool pass = true;
  for (const course::StepReport& s : report.steps)
    pass &= s.status == "pass" || (s.optional && whole_lesson);
  report.status = pass ? "pass" : "fail";
}

}  // namespace

namespace {

course::LessonReport grade_holding_lock(const course::Selection& sel, const GradeOptions& o,
                                        nlohmann::json& device) {
  course::LessonReport report;
  if (!prepare(*sel.lesson, o, report)) return report;
  const std::vector<const course::Step*> steps = selected_steps(sel);
  TestRun run;
  if (!run_tests(*sel.lesson, steps, o, device, report, run)) return report;
  decide(*sel.lesson, steps, run, report);
  return report;
}

}  // namespace

std::string find_sanitizer() {
  const fs::path next_to_nvcc =
      fs::path(course::config::kCudaCompiler).parent_path() / "compute-sanitizer";
  for (const fs::path& p : {next_to_nvcc, fs::path("/usr/local/cuda/bin/compute-sanitizer")})
    if (!p.empty() && fs::exists(p)) return p.string();
  const Captured which = run_capture({"sh", "-c", "command -v compute-sanitizer"});
  std::string path = which.output.substr(0, which.output.find('\n'));
  return which.exit_code == 0 ? path : "";
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

course::LessonReport sanitize_holding_lock(const course::Selection& sel,
                                           const GradeOptions& options,
                                           const std::vector<std::string>& requested,
                                           nlohmann::json& device) {
  course::LessonReport report;
  if (!prepare(*sel.lesson, options, report)) return report;
  const std::string sanitizer = options.sanitizer.empty() ? find_sanitizer() : options.sanitizer;
  if (sanitizer.empty()) {
    report.status = "unavailable";
    report.message =
        "compute-sanitizer was not found (it ships with the CUDA toolkit, next to "
        "nvcc): put the toolkit's bin/ on PATH, or grade without --sanitize";
    return report;
  }
  std::vector<std::string> tools;  // "memcheck,memcheck" runs it once: one test per tool
  for (const std::string& t : requested)
    if (std::find(tools.begin(), tools.end(), t) == tools.end()) tools.push_back(t);
  const std::vector<const course::Step*> steps = selected_steps(sel);
  TestRun all;       // the quick correctness tests (from the first tool's run)
  TestRun findings;  // one test per tool and step, listed first: it says why the others failed
  for (std::size_t i = 0; i < tools.size(); ++i) {
    GradeOptions o = options;
    o.build = false;
    o.quick = true;
    o.kernel_timeout = std::max(o.kernel_timeout, 60.0);  // sanitizers slow kernels down a lot
    o.test_timeout = std::max(o.test_timeout, 600.0);
    o.wrapper = {sanitizer, "--tool", tools[i], "--error-exitcode", "97", "--print-limit", "10"};
    if (tools[i] == "racecheck") o.wrapper.insert(o.wrapper.end(), {"--racecheck-report", "all"});
    // Red zones after every allocation: a read just past one buffer would otherwise land in the
    // next one, which memcheck counts as valid memory.
    if (tools[i] == "memcheck") o.wrapper.insert(o.wrapper.end(), {"--padding", "4096"});
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
      const SanitizerFindings f = sanitizer_findings(course::read_text(run.log_path).value_or(""));
      TestRecord r;
      r.name = step->name + "/compute-sanitizer." + tools[i];
      r.status = f.errors == 0 ? "passed" : "failed";
      if (f.errors) {
        std::string text = fmt::format("compute-sanitizer {} found {} error{} (full output: {}).",
                                       tools[i], f.errors, f.errors == 1 ? "" : "s", run.log_path);
        // memcheck stops a kernel at its first bad access, so the tests whose kernel made one
        // fail with cudaErrorLaunchFailure: say so, or the student chases the wrong symptom.
        if (tools[i] == "memcheck")
          text +=
              " It stops a kernel at its first bad access, so a test that failed with "
              "'unspecified launch failure' under --sanitize ran into one of these.";
        text += " Its first lines:";
        for (const std::string& l : f.first_lines) text += "\n  " + l;
        r.failures.push_back(text);
      }
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
      s.reason =
          fmt::format("compute-sanitizer {} reported errors; {}", join(found, ", "), s.reason);
  }
  report.message = "compute-sanitizer run: small shapes only, not timed";
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
