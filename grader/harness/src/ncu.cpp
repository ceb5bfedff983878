#include "harness/ncu.hpp"

#include "course/text_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace harness {

namespace fs = std::filesystem;

namespace {

constexpr char kGo[] = "go\n";

std::string tail(const std::string& s, std::size_t n = 4000) {
  return s.size() <= n ? s : "..." + s.substr(s.size() - n);
}

// Starts argv[0] (a path, or a name searched on PATH) with stdout and stderr to `output_file`.
// Returns 0 and sets `pid`, or posix_spawnp's error number.
int spawn(const std::vector<std::string>& argv, const std::string& output_file, pid_t& pid) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const int err = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return err;
}

// waitpid(pid) through interruptions; the exit code, -1 if it died of a signal, or -2 if it could
// not be waited for.
int wait_exit_code(pid_t pid) {
  int status = 0;
  pid_t got = -1;
  while ((got = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (got != pid) return -2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Stops `pid` (SIGTERM, then SIGKILL after about 5 s) and reaps it.
void stop(pid_t pid) {
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 500; ++i) {
    const pid_t got = ::waitpid(pid, nullptr, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) return;
    ::usleep(10000);
  }
  ::kill(pid, SIGKILL);
  wait_exit_code(pid);
}

}  // namespace

bool counters_surely_permitted(const std::string& nvidia_params, const std::string& proc_status) {
  std::istringstream params(nvidia_params);
  for (std::string line; std::getline(params, line);) {
    constexpr char kKey[] = "RmProfilingAdminOnly:";
    if (line.rfind(kKey, 0) != 0) continue;
    const std::string value = line.substr(sizeof kKey - 1);
    if (value.find_first_not_of(" \t") != std::string::npos &&
        value.find_first_not_of(" \t0") == std::string::npos)
      return true;  // "RmProfilingAdminOnly: 0": every user may read them
    break;
  }
  std::istringstream status(proc_status);
  for (std::string line; std::getline(status, line);)
    if (line.rfind("CapEff:", 0) == 0) {
      constexpr unsigned long long kCapSysAdmin = 1ull << 21;  // linux/capability.h
      return (std::strtoull(line.c_str() + std::strlen("CapEff:"), nullptr, 16) & kCapSysAdmin) !=
             0;
    }
  return false;
}

bool counters_surely_permitted() {
  return counters_surely_permitted(course::read_text("/proc/driver/nvidia/params").value_or(""),
                                   course::read_text("/proc/self/status").value_or(""));
}

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

StartedNcu::StartedNcu(const std::string& ncu, const std::string& kernels,
                       const std::vector<std::string>& program, const std::string& dir)
    : dir_(dir) {
  if (ncu.empty()) return;  // finish() says not_found
  std::error_code ec;
  fs::create_directories(dir_, ec);
  // The go file, locked before the program can look at it: close-on-exec, so that no child
  // inherits the lock and keeps it after this process ends.
  const std::string go_file = (fs::path(dir_) / "go").string();
  go_fd_ = ::open(go_file.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (go_fd_ < 0 || ::flock(go_fd_, LOCK_EX) != 0) {
    launch_error_ = "could not lock " + go_file + ": " + std::strerror(errno);
    return;
  }
  std::vector<std::string> cmd = {ncu};
  for (const std::string& a : course::profile::ncu_csv_args(kernels, csv_file())) cmd.push_back(a);
  cmd.insert(cmd.end(), program.begin(), program.end());
  cmd.insert(cmd.end(), {"--wait-for-go", go_file});
  pid_t pid = -1;
  if (const int err = spawn(cmd, output_file(), pid); err != 0)
    launch_error_ = "could not start " + ncu + ": " + std::strerror(err);
  else
    pid_ = pid;
}

StartedNcu::~StartedNcu() {
  // Never told go: closing the go file lets the program read that and exit without launching
  // anything; ncu then ends with it.
  if (go_fd_ >= 0) ::close(go_fd_);
  if (pid_ > 0) stop(pid_);
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string StartedNcu::csv_file() const {
  return (fs::path(dir_) / "metrics.csv").string();
}
std::string StartedNcu::output_file() const {
  return (fs::path(dir_) / "output.txt").string();
}

NcuResult StartedNcu::finish() {
  NcuResult r;
  if (pid_ < 0 && launch_error_.empty()) {  // ncu was ""
    r.outcome = NcuResult::Outcome::not_found;
    return r;
  }
  if (pid_ < 0) {
    r.output = launch_error_;
    return r;
  }
  bool told = ::pwrite(go_fd_, kGo, sizeof kGo - 1, 0) == static_cast<ssize_t>(sizeof kGo - 1);
  ::close(go_fd_);  // releases the lock: the program goes on
  go_fd_ = -1;
  const int exit_code = wait_exit_code(pid_);
  if (exit_code == -2) {
    const std::string why = std::strerror(errno);
    stop(pid_);
    pid_ = -1;
    r.output = "could not wait for Nsight Compute to end: " + why;
    return r;
  }
  pid_ = -1;
  const std::string program_output = course::read_text(output_file()).value_or("");
  // ncu's own lines (==PROF==, ==ERROR==, the CSV) go to the CSV file, the program's to output.
  const std::string csv = course::read_text(csv_file()).value_or("");
  r.output = tail(program_output + (csv.empty() ? "" : "\n" + csv));
  if (!told) {
    r.output = tail(r.output + "\ncould not write go to the profiled program");
    return r;
  }
  // ncu reports the permission error on its own lines (==ERROR== ERR_NVGPUCTRPERM ...) and still
  // runs the program, so the program's exit code says nothing about it: look for it first.
  if ((program_output + csv).find("ERR_NVGPUCTRPERM") != std::string::npos) {
    r.outcome = NcuResult::Outcome::not_permitted;
    return r;
  }
  if (exit_code == 127 && program_output.empty()) {
    r.output = "could not start Nsight Compute (exit code 127: not found or not executable)";
    return r;
  }
  if (exit_code != 0) {
    // ncu returns the program's exit code: a gtest binary whose cases failed returns 1.
    r.outcome = program_output.find("[  FAILED  ]") != std::string::npos
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

NcuResult run_ncu(const std::string& ncu, const std::string& kernels,
                  const std::vector<std::string>& program, const std::string& dir) {
  return StartedNcu(ncu, kernels, program, dir).finish();
}

bool wait_for_go(const std::string& go_file) {
  const int fd = ::open(go_file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  // The starting process holds the file locked until it has the GPU alone, then writes "go".
  while (::flock(fd, LOCK_SH) != 0 && errno == EINTR) {
  }
  char got[sizeof kGo] = {};
  const ssize_t n = ::pread(fd, got, sizeof kGo - 1, 0);
  ::close(fd);
  return n == static_cast<ssize_t>(sizeof kGo - 1) && std::strcmp(got, kGo) == 0;
}

}  // namespace harness
