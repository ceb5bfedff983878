#include "run_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include <fmt/format.h>

namespace driver {

std::filesystem::path runs_dir(const GradeOptions& o) {
  return std::filesystem::path(o.binary_dir) / "grader-runs";
}

RunLock::RunLock(const std::filesystem::path& path, const std::string& what, bool status_messages) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // flock needs no write access
  if (fd_ < 0 || ::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;    // unlockable: run as before
  if (errno == EWOULDBLOCK && status_messages)
    fmt::print(stderr, "another grader is {}; waiting for it to finish ...\n", what);
  while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
}

RunLock::~RunLock() {
  if (fd_ >= 0) ::close(fd_);
}

FileLock::FileLock(const std::filesystem::path& path, bool wait) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  int rc;
  while ((rc = ::flock(fd_, wait ? LOCK_EX : LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace driver
