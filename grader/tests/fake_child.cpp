// Stands in for a hidden-test process in the runner's CPU tests. It accepts the arguments the
// grader passes (--report FILE ... --kernel-timeout S [--quick] [--skip-large]
// --gtest_filter=A:B:C) and, per
// test in the filter, acts out a mode taken from the test's name: "pass", "fail", "crash"
// (SIGSEGV mid-test), "hang" (sleeps forever mid-test, after writing its pid to $FAKE_PID_FILE if
// set), "sticky" (fatal record, exit 86), "stall" (a kernel the harness gives up on: after
// --kernel-timeout seconds a failure, a fatal record, exit 86), "oob" (passes; with --quick, as
// under compute-sanitizer memcheck, its kernel is stopped: unspecified launch failure, fatal
// record, exit 86), "quickfail" (passes; fails with --quick), "skip" (skipped, with a reason),
// "large" (passes; skipped in quick mode under --skip-large or --quick, as lesson 03's 2^31 case),
// "waits" (passes after 2.5 s of "waiting_for_quiet_gpu" records, one each 0.5 s; "waitsmachine"
// the same with "on":"machine", a wait for another hidden-test process on the machine).
// "--gtest_list_tests" lists the tests named in $FAKE_TESTS that --gtest_filter selects. With
// $FAKE_ARGS_FILE set, a run (not a listing) appends its arguments there, one line per process.
// While the file $FAKE_BUSY_WHILE exists, a run finds no usable GPU, as a GPU in an exclusive
// compute mode whose context another process holds (cudaErrorDevicesUnavailable). With
// $FAKE_IMAGE_PROBLEM set, a run reports that text as its device images' problem (a build folder
// compiled for another GPU) in its device record and exits as the harness does then. A run that
// reaches its end writes the harness's "exit" record; with $FAKE_SLOW_EXIT set, it then takes
// that many seconds to exit (a CUDA context's teardown, slowed down). With $FAKE_BUSY_COUNT_FILE
// holding a number above 0, a run takes one off and finds the GPU busy, as $FAKE_BUSY_WHILE.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "course/protocol.hpp"

namespace {
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, sep);)
    if (!x.empty()) out.push_back(x);
  return out;
}

// Whether `filter` (the grader's: exact names or "step/*", ':'-separated; "" = all) selects `test`.
bool selected(const std::string& test, const std::string& filter) {
  if (filter.empty()) return true;
  for (const std::string& pattern : split(filter, ':')) {
    if (pattern == test) return true;
    if (pattern.size() > 1 && pattern.back() == '*' &&
        test.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0)
      return true;
  }
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  std::string report, filter;
  bool list = false, quick = false, skip_large = false;
  double kernel_timeout = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report" && i + 1 < argc)
      report = argv[++i];
    else if (a == "--kernel-timeout" && i + 1 < argc)
      kernel_timeout = std::atof(argv[++i]);
    else if (a == "--quick")
      quick = true;
    else if (a == "--skip-large")
      skip_large = true;
    else if (a.rfind("--gtest_filter=", 0) == 0)
      filter = a.substr(15);
    else if (a == "--gtest_list_tests")
      list = true;
  }
  if (const char* args_file = std::getenv("FAKE_ARGS_FILE"); args_file && !list) {
    std::ofstream out(args_file, std::ios::app);
    for (int i = 1; i < argc; ++i) out << (i > 1 ? " " : "") << argv[i];
    out << "\n";
  }
  if (list) {  // "step/Suite.name" -> "step/Suite.\n  name", those the filter selects
    const char* env = std::getenv("FAKE_TESTS");
    for (const std::string& t : split(env ? env : "", ':')) {
      if (!selected(t, filter)) continue;
      const auto dot = t.find('.');
      std::printf("%s\n  %s\n", t.substr(0, dot + 1).c_str(), t.substr(dot + 1).c_str());
    }
    return 0;
  }
  // The GPU in an exclusive compute mode, its one context taken by another process.
  bool busy_now = false;
  if (const char* busy = std::getenv("FAKE_BUSY_WHILE"); busy && std::ifstream(busy))
    busy_now = true;
  if (const char* count_file = std::getenv("FAKE_BUSY_COUNT_FILE")) {
    int count = 0;
    std::ifstream(count_file) >> count;
    if (count > 0) {
      std::ofstream(count_file) << count - 1 << "\n";
      busy_now = true;
    }
  }
  if (busy_now) {
    std::ofstream(report, std::ios::app)
        << R"j({"event":"no_gpu","reason":"all CUDA-capable devices are busy or unavailable (cudaErrorDevicesUnavailable)"})j"
        << "\n";
    return course::protocol::kExitNoGpu;
  }
  if (std::getenv("FAKE_NO_GPU")) {
    std::ofstream(report, std::ios::app) << R"({"event":"no_gpu","reason":"fake: no device"})"
                                         << "\n";
    return course::protocol::kExitNoGpu;
  }
  std::FILE* f = std::fopen(report.c_str(), "a");
  auto write = [&](const nlohmann::json& j) {
    std::fprintf(f, "%s\n", j.dump().c_str());
    std::fflush(f);
  };
  nlohmann::json device = {{"event", "device"}, {"name", "Fake GPU"}, {"cc", "9.0"}};
  if (const char* problem = std::getenv("FAKE_IMAGE_PROBLEM")) {  // device images for another GPU
    device["device_image_problem"] = problem;
    write(device);
    return course::protocol::kExitNoGpu;
  }
  write(device);
  bool any_failed = false;
  for (const std::string& t : split(filter, ':')) {
    write({{"event", "start"}, {"test", t}});
    if (t.find("crash") != std::string::npos) raise(SIGSEGV);
    if (t.find("hang") != std::string::npos) {
      if (const char* pid_file = std::getenv("FAKE_PID_FILE"))
        std::ofstream(pid_file) << getpid() << "\n";
      for (;;) pause();
    }
    if (t.find("waits") != std::string::npos) {  // waits 2.5 s for the GPU, saying so
      nlohmann::json beat_record = {{"event", "waiting_for_quiet_gpu"}};
      if (t.find("waitsmachine") != std::string::npos) beat_record["on"] = "machine";
      for (int beat = 0; beat < 5; ++beat) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        write(beat_record);
      }
    }
    const bool stall = t.find("stall") != std::string::npos;
    const bool stopped = quick && t.find("oob") != std::string::npos;
    std::string failure = "fake failure in " + t;
    if (stall) {
      std::this_thread::sleep_for(std::chrono::duration<double>(kernel_timeout));
      failure = "the kernel did not finish within " + std::to_string(kernel_timeout) + " s";
    }
    if (stopped) failure = "launch: cudaErrorLaunchFailure (unspecified launch failure)";
    const bool sticky = t.find("sticky") != std::string::npos || stall || stopped;
    const bool fail =
        (t.find("fail") != std::string::npos && t.find("quickfail") == std::string::npos) ||
        (quick && t.find("quickfail") != std::string::npos) || sticky;
    any_failed |= fail;
    const bool skip = !fail && t.find("skip") != std::string::npos;  // e.g. not enough memory
    const bool skip_as_large = (quick || skip_large) && t.find("large") != std::string::npos;
    write({{"event", "end"},
           {"test", t},
           {"status", fail                    ? "failed"
                      : skip || skip_as_large ? "skipped"
                                              : "passed"},
           {"ms", stall ? 1000 * kernel_timeout : 1.0},
           {"failures",
            fail   ? std::vector<std::string>{failure}
            : skip ? std::vector<std::string>{"not enough GPU memory: fake"}
            : skip_as_large
                ? std::vector<std::string>{std::string(course::protocol::kQuickSkipPrefix) +
                                           "large shape skipped"}
                : std::vector<std::string>{}}});
    if (sticky) {
      write({{"event", "fatal"}, {"test", t}, {"reason", failure}});
      return course::protocol::kExitContextLost;
    }
  }
  const int rc = any_failed ? 1 : 0;
  write({{"event", "exit"}, {"code", rc}});
  if (const char* slow = std::getenv("FAKE_SLOW_EXIT"))
    std::this_thread::sleep_for(std::chrono::duration<double>(std::atof(slow)));
  return rc;
}
