#include "grade.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "course/config.hpp"
#include "course/protocol.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;
using course::protocol::TestRecord;

std::string target_name(const std::string& lesson, const std::string& variant) {
  return variant.empty() ? "grade_" + lesson : "grade_" + lesson + "__" + variant;
}

std::string compiler_errors(const std::string& out, std::size_t max_lines) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<std::string> kept;
  std::size_t keep_after = 0;
  for (const std::string& l : lines) {
    const bool err = l.find("error") != std::string::npos || l.find("Error") != std::string::npos;
    if (err) keep_after = 2;
    if (err || keep_after > 0) {
      kept.push_back(l);
      if (!err) --keep_after;
    }
    if (kept.size() >= max_lines) break;
  }
  if (kept.empty()) {  // no recognizable error line: show the tail
    const std::size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
    kept.assign(lines.begin() + static_cast<long>(from), lines.end());
  }
  std::string s;
  for (const std::string& l : kept) s += l + "\n";
  return s;
}

bool build_target(const GradeOptions& o, const std::string& target, std::string& log) {
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
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

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// Whether a device record's compute capability reaches "major.minor".
bool cc_at_least(const nlohmann::json& device, const std::string& need) {
  if (need.empty() || !device.is_object()) return true;
  const std::string have = device.value("cc", "0.0");
  auto parse = [](const std::string& s) {
    const auto dot = s.find('.');
    return std::make_pair(std::stoi(s.substr(0, dot)),
                          dot == std::string::npos ? 0 : std::stoi(s.substr(dot + 1)));
  };
  return parse(have) >= parse(need);
}

}  // namespace

course::LessonReport grade(const course::Selection& sel, const GradeOptions& o,
                           nlohmann::json& device) {
  const course::Lesson& lesson = *sel.lesson;
  course::LessonReport report;
  report.id = lesson.id;
  report.title = lesson.title;
  report.seed = o.seed;
  report.variant = o.variant;

  std::vector<const course::Step*> steps;
  if (sel.step)
    steps.push_back(sel.step);
  else
    for (const course::Step& s : lesson.steps) steps.push_back(&s);

  if (!lesson.ready()) {
    report.status = "error";
    report.message = fmt::format(
        "lesson {} is planned but not written yet; run `grader` for the "
        "lessons you can do now",
        lesson.id);
    return report;
  }
  if (!course::config::kHaveCuda) {
    report.status = "no_gpu";
    report.message =
        "this build has no CUDA compiler, so lessons cannot be built: install the "
        "CUDA toolkit (12 or newer), then reconfigure (cmake --preset exercises)";
    return report;
  }

  const std::string target = target_name(lesson.id, o.variant);
  if (o.build) {
    if (o.progress) fmt::print(stderr, "building {} ...\n", target);
    std::string log;
    if (!build_target(o, target, log)) {
      report.status = "build_failed";
      report.message = fmt::format("{} did not compile; the compiler said:", target);
      report.build_log = log;
      return report;
    }
  }
  const std::string exe = (fs::path(o.lesson_bin_dir) / target).string();
  if (!fs::exists(exe)) {
    report.status = "error";
    report.message = fmt::format("{} does not exist: build it first (or drop --no-build)", exe);
    return report;
  }

  std::string filter;
  for (const course::Step* s : steps) filter += (filter.empty() ? "" : ":") + s->name + "/*";
  std::string list_error;
  const std::vector<std::string> expected = list_tests(exe, filter, list_error);
  if (!list_error.empty()) {
    report.status = "error";
    report.message = list_error;
    return report;
  }

  const fs::path run_dir = fs::path(o.binary_dir) / "grader-runs" / target;
  fs::remove_all(run_dir);
  fs::create_directories(run_dir);
  const std::string log_path = (run_dir / "tests.log").string();

  std::vector<TestRecord> records;
  std::set<std::string> done;
  for (int run = 0; done.size() < expected.size() && run <= static_cast<int>(expected.size());
       ++run) {
    std::vector<std::string> remaining;
    for (const std::string& t : expected)
      if (!done.count(t)) remaining.push_back(t);
    const std::string report_path = (run_dir / fmt::format("run-{}.jsonl", run)).string();
    WatchedChild child;
    child.argv = o.wrapper;
    for (const std::string& a : std::vector<std::string>{
             exe, "--report", report_path, "--seed", std::to_string(o.seed), "--device",
             std::to_string(o.device), "--kernel-timeout", fmt::format("{}", o.kernel_timeout),
             "--gtest_filter=" + join(remaining, ":")})
      child.argv.push_back(a);
    if (o.quick) child.argv.push_back("--quick");
    child.report_path = report_path;
    child.log_path = log_path;
    child.test_timeout = o.test_timeout;
    child.idle_timeout = std::max(60.0, o.test_timeout);
    if (o.progress)
      fmt::print(stderr, "running {} hidden test{} of {}{} ...\n", remaining.size(),
                 remaining.size() == 1 ? "" : "s", lesson.id, run ? " in a fresh process" : "");
    const ChildEnd end = run_watched(child);
    const course::protocol::ChildLog log = course::protocol::parse_log(read_file(report_path));

    if (log.no_gpu || (end.exited && end.code == course::protocol::kExitNoGpu)) {
      report.status = "no_gpu";
      report.message = fmt::format(
          "no usable CUDA GPU: {}. Grading needs an NVIDIA GPU of compute capability {} or newer; "
          "`grader`, `grader hint` and `grader sim` work without one",
          log.no_gpu_reason.empty() ? "the test process could not create a CUDA context"
                                    : log.no_gpu_reason,
          lesson.min_cc.empty() ? "7.5" : lesson.min_cc);
      return report;
    }
    if (log.device.is_object()) device = log.device;
    if (!cc_at_least(device, lesson.min_cc)) {
      report.status = "unsupported";
      report.message = fmt::format("{} needs compute capability {} or newer; this GPU is {}",
                                   lesson.id, lesson.min_cc, device.value("cc", "?"));
      return report;
    }
    for (const TestRecord& r : log.finished) {
      records.push_back(r);
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
                        describe(end), log_path));
      }
      records.push_back(r);
      done.insert(r.name);
    }
    if (end.exited && (end.code == 0 || end.code == 1)) break;  // ran to its end
    if (end.exited && end.code != course::protocol::kExitContextLost && log.running.empty() &&
        log.finished.empty()) {
      report.status = "error";
      report.message =
          fmt::format("the hidden tests of {} ended without a report ({}); output in {}", lesson.id,
                      describe(end), log_path);
      return report;
    }
  }
  // Anything still missing never ran (the loop above gives up after one run per test).
  for (const std::string& t : expected) {
    if (!done.count(t)) records.push_back({t, "not_run", {"this test never ran"}, {}, 0});
  }

  report.steps = course::build_steps(lesson, steps, expected, records);
  bool pass = true;
  for (const course::StepReport& s : report.steps) pass &= s.status == "pass" || s.optional;
  report.status = pass ? "pass" : "fail";
  return report;
}

}  // namespace driver
