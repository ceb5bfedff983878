// harness/quiet_gpu.hpp without a GPU: a timed test waits while the grader holds the lock file,
// says it is alive while it waits, and goes on once the lock is released; correctness cases are
// the only tests that run beside other work.
#include "harness/quiet_gpu.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;

TEST(QuietGpu, CorrectnessCasesAloneRunBesideOtherWork) {
  EXPECT_TRUE(harness::runs_beside_other_work("naive/Correct"));
  EXPECT_TRUE(harness::runs_beside_other_work("host/Correct"));
  EXPECT_FALSE(harness::runs_beside_other_work("naive/Speed"));
  EXPECT_FALSE(harness::runs_beside_other_work("profile/Counters"));
  EXPECT_FALSE(harness::runs_beside_other_work("Correct"));
}

// The waiting side in a thread of this process; the grader's side is another open file
// description of the same file (flocks of two descriptions exclude each other, as between
// processes).
TEST(QuietGpu, WaitsForTheGradersLockThenKeepsIt) {
  const fs::path lock = fs::temp_directory_path() / ("quiet-gpu-" + std::to_string(::getpid()));
  const int grader = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(grader, 0);
  ASSERT_EQ(::flock(grader, LOCK_EX), 0);
  std::atomic<bool> done{false};
  std::atomic<int> beats{0};
  harness::set_quiet_gpu_lock(lock.string(), [&] { ++beats; });
  std::thread timed([&] {
    harness::wait_for_quiet_gpu();
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  EXPECT_FALSE(done) << "the timed test did not wait for the grader's lock";
  EXPECT_GE(beats.load(), 1) << "no heartbeat while waiting";
  ::close(grader);  // memcheck is done: the GPU is quiet
  timed.join();
  EXPECT_TRUE(done);
  // The lock is the test process's now: the grader's side cannot take it.
  const int again = ::open(lock.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(again, 0);
  EXPECT_NE(::flock(again, LOCK_EX | LOCK_NB), 0);
  ::close(again);
  harness::wait_for_quiet_gpu();  // a second wait returns at once
  harness::set_quiet_gpu_lock("", {});
  fs::remove(lock);
}

}  // namespace
