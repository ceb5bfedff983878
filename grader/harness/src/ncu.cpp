#include "harness/ncu.hpp"

#include "course/text_file.hpp"

#include <cstdio>
#include <filesystem>

#include <sys/wait.h>

namespace harness {

namespace fs = std::filesystem;

namespace {

// 'arg' with every ' escaped, for sh -c.
std::string quoted(const std::string& arg) {
  std::string q = "'";
  for (char c : arg) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct Ran {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

Ran run(const std::vector<std::string>& argv) {
  std::string cmd;
  for (const std::string& a : argv) cmd += (cmd.empty() ? "" : " ") + quoted(a);
  cmd += " 2>&1";
  Ran r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  std::size_t got = 0;
  while ((got = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, got);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string tail(const std::string& s, std::size_t n = 4000) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

}  // namespace

std::string counters_not_permitted_reason() {
  return "Nsight Compute may not read this GPU's performance counters here (ERR_NVGPUCTRPERM), as "
         "on Colab and most shared machines: profiler step not graded. An administrator allows it "
         "by loading the driver with NVreg_RestrictProfilingToAdminUsers=0 (see "
         "https://developer.nvidia.com/ERR_NVGPUCTRPERM); then `grader profile` works too";
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : p.string();
}

NcuResult run_ncu(const std::string& ncu, const std::string& kernels,
                  const std::vector<std::string>& program, const std::string& dir) {
  NcuResult r;
  if (ncu.empty()) {
    r.outcome = NcuResult::Outcome::not_found;
    return r;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string csv_file = (fs::path(dir) / "metrics.csv").string();
  std::vector<std::string> cmd = {ncu};
  for (const std::string& a : course::profile::ncu_csv_args(kernels, csv_file)) cmd.push_back(a);
  cmd.insert(cmd.end(), program.begin(), program.end());
  const Ran profiled = run(cmd);
  // ncu's own lines (==PROF==, ==ERROR==, the CSV) go to csv_file, the program's to the pipe.
  const std::string csv = course::read_text(csv_file).value_or("");
  r.output = tail(profiled.output + (csv.empty() ? "" : "\n" + csv));
  // ncu reports the permission error on its own lines (==ERROR== ERR_NVGPUCTRPERM ...) and still
  // runs the program, so the program's exit code says nothing about it: look for it first.
  if ((profiled.output + csv).find("ERR_NVGPUCTRPERM") != std::string::npos) {
    r.outcome = NcuResult::Outcome::not_permitted;
    return r;
  }
  if (profiled.exit_code != 0) {
    // ncu returns the program's exit code: a gtest binary whose cases failed returns 1.
    r.outcome = profiled.output.find("[  FAILED  ]") != std::string::npos
                    ? NcuResult::Outcome::program_failed
                    : NcuResult::Outcome::error;
    return r;
  }
  try {
    r.kernels = course::profile::parse_ncu_csv(csv);
  } catch (const std::exception& e) {
    r.outcome = NcuResult::Outcome::error;
    r.output = tail(r.output + "\n" + e.what());
    return r;
  }
  r.outcome = r.kernels.empty() ? NcuResult::Outcome::no_kernels : NcuResult::Outcome::metrics;
  return r;
}

}  // namespace harness
