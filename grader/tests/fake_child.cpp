// Stands in for a hidden-test process in the runner's CPU tests. It accepts the arguments the
// grader passes (--report FILE ... --gtest_filter=A:B:C) and, per test in the filter, acts out
// a mode taken from the test's name: "pass", "fail", "crash" (SIGSEGV mid-test), "hang"
// (sleeps forever mid-test, after writing its pid to $FAKE_PID_FILE if set), "sticky" (fatal
// record, exit 86).
// "--gtest_list_tests" lists the tests named in $FAKE_TESTS.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
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
}  // namespace

int main(int argc, char** argv) {
  std::string report, filter;
  bool list = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--report" && i + 1 < argc)
      report = argv[++i];
    else if (a.rfind("--gtest_filter=", 0) == 0)
      filter = a.substr(15);
    else if (a == "--gtest_list_tests")
      list = true;
  }
  if (list) {  // "step/Suite.name" -> "step/Suite.\n  name"
    const char* env = std::getenv("FAKE_TESTS");
    for (const std::string& t : split(env ? env : "", ':')) {
      const auto dot = t.find('.');
      std::printf("%s\n  %s\n", t.substr(0, dot + 1).c_str(), t.substr(dot + 1).c_str());
    }
    return 0;
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
  write({{"event", "device"}, {"name", "Fake GPU"}, {"cc", "9.0"}});
  bool any_failed = false;
  for (const std::string& t : split(filter, ':')) {
    write({{"event", "start"}, {"test", t}});
    if (t.find("crash") != std::string::npos) raise(SIGSEGV);
    if (t.find("hang") != std::string::npos) {
      if (const char* pid_file = std::getenv("FAKE_PID_FILE"))
        std::ofstream(pid_file) << getpid() << "\n";
      for (;;) pause();
    }
    const bool fail = t.find("fail") != std::string::npos || t.find("sticky") != std::string::npos;
    any_failed |= fail;
    write({{"event", "end"},
           {"test", t},
           {"status", fail ? "failed" : "passed"},
           {"failures",
            fail ? std::vector<std::string>{"fake failure in " + t} : std::vector<std::string>{}}});
    if (t.find("sticky") != std::string::npos) {
      write({{"event", "fatal"}, {"test", t}, {"reason", "fake sticky error"}});
      return course::protocol::kExitContextLost;
    }
  }
  return any_failed ? 1 : 0;
}
