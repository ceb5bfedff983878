// harness/quiet_gpu.hpp without a GPU: a timed test waits while the grader holds the lock file,
// says it is alive while it waits, and goes on once the lock is released; correctness cases are
// the only tests that run beside other work. The machine-wide lock (GpuShare): sharers share,
// the one that has the GPU alone waits for them and keeps new ones out, and two sharers that both
// want it alone never wait for each other. Each GpuShare opens its own file descriptions, so
// instances in threads of this process exclude each other as processes would.
#include "harness/quiet_gpu.hpp"

#include "harness/lesson.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;

TEST(QuietGpu, CorrectnessCasesAloneRunBesideOtherWork) {
  EXPECT_TRUE(harness::runs_beside_other_work("naive/Correct"));
  EXPECT_TRUE(harness::runs_beside_other_work("host/Correct"));
  EXPECT_TRUE(harness::runs_beside_other_work("host/CorrectLast"));
  EXPECT_FALSE(harness::runs_beside_other_work("host/CorrectLastly"));
  EXPECT_FALSE(harness::runs_beside_other_work("naive/Speed"));
  EXPECT_FALSE(harness::runs_beside_other_work("profile/Counters"));
  EXPECT_FALSE(harness::runs_beside_other_work("Correct"));
}

// A test that waits where it needs the GPU alone (lesson 15's profiled test) is marked by suite.
TEST(QuietGpu, ASuiteMayWaitItself) {
  EXPECT_FALSE(harness::waits_itself("qg_profile/Counters"));
  harness::set_waits_itself("qg_profile/Counters");
  EXPECT_TRUE(harness::waits_itself("qg_profile/Counters"));
  EXPECT_FALSE(harness::waits_itself("qg_profile/Other"));
}

// A timed test waits where it knows it will time (run_speed(), run_host_speed()), so that one whose
// step failed its cases ends without waiting for the memcheck run beside the tests.
TEST(QuietGpu, TimedTestsWaitThemselves) {
  harness::detail::register_timed_test("qg_step", [] {});  // held back until main() registers it
  EXPECT_TRUE(harness::waits_itself("qg_step/Speed"));
  EXPECT_FALSE(harness::waits_itself("qg_step/Correct"));
  harness::detail::register_test_waiting_itself("qg_profile/Counters", "ncu", [] {});
  EXPECT_TRUE(harness::waits_itself("qg_profile/Counters"));
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
  // Once every test has run, the process lets it go before its CUDA context's teardown.
  harness::release_gpu_locks();
  const int after = ::open(lock.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(after, 0);
  EXPECT_EQ(::flock(after, LOCK_EX | LOCK_NB), 0) << "still held after release_gpu_locks()";
  ::close(after);
  harness::set_quiet_gpu_lock("", {});
  fs::remove(lock);
}

// A fresh folder for one test's lock files.
struct LockDir {
  fs::path path =
      fs::temp_directory_path() / ("gpu-share-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  LockDir() { fs::create_directories(path); }
  ~LockDir() { fs::remove_all(path); }
};

// `call` in a thread; done() once it returned.
class InThread {
 public:
  explicit InThread(std::function<void()> call)
      : thread_([this, call = std::move(call)] {
          call();
          done_ = true;
        }) {}
  ~InThread() { thread_.join(); }
  bool done() const { return done_; }
  // Whether it returns within `ms`.
  bool done_within(int ms) const {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (!done_ && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return done_;
  }

 private:
  std::atomic<bool> done_{false};
  std::thread thread_;
};

TEST(GpuShare, SharersShareAndTheOneAloneWaitsForThemAll) {
  LockDir dir;
  harness::GpuShare a(dir.path.string(), "0a"), b(dir.path.string(), "0a");
  ASSERT_TRUE(a.usable());
  a.share();
  b.share();  // returns at once: both share
  EXPECT_TRUE(a.shared() && b.shared());
  auto w = std::make_unique<harness::GpuShare>(dir.path.string(), "0a");
  {
    InThread alone([&] { w->take_alone(); });
    EXPECT_FALSE(alone.done_within(300)) << "had the GPU alone while two processes shared it";
    a.leave();
    EXPECT_FALSE(alone.done_within(300)) << "had the GPU alone while one process shared it";
    b.leave();
    EXPECT_TRUE(alone.done_within(2000));
  }
  EXPECT_TRUE(w->alone());
  // Nobody shares it while it is had alone, and the share follows once it is let go.
  harness::GpuShare later(dir.path.string(), "0a");
  InThread share([&] { later.share(); });
  EXPECT_FALSE(share.done_within(300)) << "shared the GPU while another had it alone";
  w.reset();  // that process ended
  EXPECT_TRUE(share.done_within(2000));
}

TEST(GpuShare, OneWaitingToHaveItAloneKeepsNewSharersOut) {
  LockDir dir;
  harness::GpuShare sharing(dir.path.string(), "0b");
  sharing.share();
  auto w = std::make_unique<harness::GpuShare>(dir.path.string(), "0b");
  InThread alone([&] { w->take_alone(); });
  EXPECT_FALSE(alone.done_within(200));
  // A process that starts now waits: otherwise a stream of new sharers would keep the timed
  // test waiting forever.
  harness::GpuShare newcomer(dir.path.string(), "0b");
  InThread share([&] { newcomer.share(); });
  EXPECT_FALSE(share.done_within(300)) << "a new sharer went past one waiting to have it alone";
  sharing.leave();
  EXPECT_TRUE(alone.done_within(2000));
  EXPECT_FALSE(share.done_within(200));
  w.reset();
  EXPECT_TRUE(share.done_within(2000));
}

TEST(GpuShare, TwoSharersThatBothWantItAloneTakeTurns) {
  LockDir dir;
  auto a = std::make_unique<harness::GpuShare>(dir.path.string(), "0c");
  auto b = std::make_unique<harness::GpuShare>(dir.path.string(), "0c");
  a->share();
  b->share();
  auto ta = std::make_unique<InThread>([&] { a->take_alone(); });
  auto tb = std::make_unique<InThread>([&] { b->take_alone(); });
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  while (!ta->done() && !tb->done() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(ta->done() || tb->done()) << "deadlock: neither had the GPU alone";
  EXPECT_FALSE(ta->done() && tb->done()) << "both had the GPU alone at once";
  const bool a_first = ta->done();
  if (a_first) {
    ta.reset();
    a.reset();
    EXPECT_TRUE(tb->done_within(2000));
  } else {
    tb.reset();
    b.reset();
    EXPECT_TRUE(ta->done_within(2000));
  }
}

TEST(GpuShare, ItsFilesAreOpenToEveryUserWhateverTheUmask) {
  LockDir dir;
  const mode_t old = ::umask(077);
  harness::GpuShare s(dir.path.string(), "0d");
  ::umask(old);
  ASSERT_TRUE(s.usable());
  for (const char* ext : {".gate", ".lock"}) {
    struct stat st {};
    ASSERT_EQ(::stat((dir.path / (std::string("cuda-course-gpu-0d") + ext)).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u) << ext;
  }
}

TEST(GpuShare, AFolderThatCannotHoldItWaitsForNothing) {
  harness::GpuShare s("/nonexistent-folder-for-gpu-share", "0e");
  EXPECT_FALSE(s.usable());
  s.share();
  s.take_alone();  // returns at once
  EXPECT_FALSE(s.alone());
}

}  // namespace
