#include "harness/quiet_gpu.hpp"

#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <thread>

namespace harness {

namespace {
std::string& lock_path() {
  static std::string path;
  return path;
}
std::function<void()>& heartbeat() {
  static std::function<void()> beat;
  return beat;
}
std::function<void()>& machine_heartbeat() {
  static std::function<void()> beat;
  return beat;
}
std::unique_ptr<GpuShare>& machine() {  // set by share_gpu_on_machine()
  static std::unique_ptr<GpuShare> share;
  return share;
}
bool& quiet() {  // the locks are had (kept until release_gpu_locks() or the end), or there are none
  static bool had = false;
  return had;
}
int& quiet_lock_fd() {  // the grade's lock, once had (-1: not had)
  static int fd = -1;
  return fd;
}

// Takes flock `op` (LOCK_SH or LOCK_EX) on `fd`, polling every 5 ms and calling `beat` about once
// a second while it waits. False when the file cannot be locked at all (then nothing is waited
// for).
bool take(int fd, int op, const std::function<void()>& beat) {
  auto last = std::chrono::steady_clock::now();
  while (::flock(fd, op | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (beat && std::chrono::steady_clock::now() - last > std::chrono::seconds(1)) {
      beat();
      last = std::chrono::steady_clock::now();
    }
  }
  return true;
}

// Opens `path` read-only (enough for flock), creating it readable by every user when missing. An
// existing file is opened without O_CREAT: in /tmp, with fs.protected_regular set, O_CREAT on
// another user's file fails.
int open_lock_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0 || errno != ENOENT) return fd;
  fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd >= 0) {
    ::fchmod(fd, 0644);  // whatever the umask: other users' processes must open it too
    return fd;
  }
  return errno == EEXIST ? ::open(path.c_str(), O_RDONLY | O_CLOEXEC) : -1;
}
}  // namespace

GpuShare::GpuShare(const std::string& dir, const std::string& key) {
  const std::string base = dir + "/cuda-course-gpu-" + key;
  gate_ = open_lock_file(base + ".gate");
  lock_ = open_lock_file(base + ".lock");
}

GpuShare::~GpuShare() {
  if (gate_ >= 0) ::close(gate_);
  if (lock_ >= 0) ::close(lock_);
}

void GpuShare::share(const std::function<void()>& beat) {
  if (!usable() || shared_ || alone_) return;
  // Through the gate: a writer holds it while it waits and while it has the GPU alone.
  if (!take(gate_, LOCK_SH, beat)) return;
  shared_ = take(lock_, LOCK_SH, beat);
  ::flock(gate_, LOCK_UN);
}

void GpuShare::leave() {
  if (!shared_) return;
  ::flock(lock_, LOCK_UN);
  shared_ = false;
}

void GpuShare::take_alone(const std::function<void()>& beat) {
  if (!usable() || alone_) return;
  leave();  // first: a sharer never waits at the gate, so the gate's holder never waits for a
            // waiter
  if (!take(gate_, LOCK_EX, beat)) return;
  alone_ = take(lock_, LOCK_EX, beat);
}

void set_quiet_gpu_lock(const std::string& path, std::function<void()> beat,
                        std::function<void()> on_machine) {
  lock_path() = path;
  heartbeat() = std::move(beat);
  machine_heartbeat() = std::move(on_machine);
}

void share_gpu_on_machine(const std::string& lock_dir, const std::string& gpu_key) {
  if (lock_dir.empty() || gpu_key.empty() || machine()) return;
  machine() = std::make_unique<GpuShare>(lock_dir, gpu_key);
  machine()->share(machine_heartbeat());
}

void wait_for_quiet_gpu() {
  if (quiet()) return;
  quiet() = true;
  GpuShare* const m = machine().get();
  if (m != nullptr && m->shared()) {
    // Its work finished before it stops sharing, so nothing of it runs while another times. Then
    // it holds nothing while it waits for the grade's lock (held while memcheck, a sharer, runs).
    cudaDeviceSynchronize();
    m->leave();
  }
  if (!lock_path().empty()) {
    const int fd = open_lock_file(lock_path());
    if (fd >= 0) take(fd, LOCK_EX, heartbeat());  // fd stays open: the lock is this process's
    quiet_lock_fd() = fd;
  }
  if (m != nullptr) m->take_alone(machine_heartbeat() ? machine_heartbeat() : heartbeat());
}

void release_gpu_locks() {
  if (quiet_lock_fd() >= 0) close(quiet_lock_fd());
  quiet_lock_fd() = -1;
  machine().reset();
}

namespace {
std::set<std::string>& suites_that_wait_themselves() {
  static std::set<std::string> suites;
  return suites;
}
}  // namespace

void set_waits_itself(const std::string& suite) {
  suites_that_wait_themselves().insert(suite);
}

bool waits_itself(const std::string& suite) {
  return suites_that_wait_themselves().count(suite) > 0;
}

bool runs_beside_other_work(const std::string& suite) {
  for (const std::string tail : {"/Correct", "/CorrectLast"})
    if (suite.size() >= tail.size() &&
        suite.compare(suite.size() - tail.size(), tail.size(), tail) == 0)
      return true;
  return false;
}

}  // namespace harness
