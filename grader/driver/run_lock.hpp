// Where a build tree keeps the grader's runs, the lock that lets one grader at a time build or
// grade a target there, and a plain flock (FileLock).
#pragma once

#include <filesystem>
#include <string>
#include <utility>

#include "grade_options.hpp"

namespace driver {

/// grader-runs/ of the build tree (GradeOptions::binary_dir): logs, reports and the locks.
std::filesystem::path runs_dir(const GradeOptions& options);

/// One grading of a target at a time, from its build to its report. A second grader of the same
/// target (`grader watch` beside a manual run, two terminals, ctest -j) would relink the program
/// under the first one's fresh processes and delete its logs, and two timed runs on one GPU would
/// disturb each other's measurements. An flock is released when its file is closed, also when the
/// process dies, so a crashed grader never leaves it held. A file that cannot be locked (no
/// access) is not waited for.
class RunLock {
 public:
  /// Takes the lock of `path`, waiting (and saying so on stderr when `status_messages`) while
  /// another grader holds it for `what` ("building in build/").
  RunLock(const std::filesystem::path& path, const std::string& what, bool status_messages);
  ~RunLock();
  RunLock(const RunLock&) = delete;
  RunLock& operator=(const RunLock&) = delete;

 private:
  int fd_ = -1;
};

/// An exclusive flock on a file, held until destroyed (also when the process dies).
class FileLock {
 public:
  FileLock() = default;
  /// Blocks until the lock is had (wait) or returns unlocked when another holds it (!wait).
  FileLock(const std::filesystem::path& path, bool wait);
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~FileLock();
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace driver
