/// @file quiet_gpu.hpp
/// @brief The GPU to itself for what is timed or profiled, against two kinds of neighbours.
///
/// 1. Within one grade. The default grade runs compute-sanitizer memcheck beside the hidden tests'
///    correctness cases (they cannot disturb each other's verdicts); a timed test, a profiled one,
///    and a check that reads the whole device's state (free memory) first wait until the grader
///    says the GPU is quiet: the grader holds an flock on a file (`--quiet-gpu-lock`) while
///    anything else of the grade runs on the GPU, and this process takes it. The reporter waits
///    at a test's start, but for tests that wait themselves once they know they need the GPU
///    (set_waits_itself()): the timed tests (run_speed(), run_host_speed()), which fail at once
///    without it when their step's correctness cases failed in this process
///    (not_timed_after_failed_cases()), and lesson 15's profiled test; time_pairs(), time_alone()
///    and time_host_calls() wait too (at once when already had). The hidden tests
///    register correctness cases first (lesson.hpp), so that all of them run beside memcheck,
///    but for the few that end their process on purpose ("<step>/CorrectLast", lesson 02's
///    kernel_fault), which run last; memcheck's runs skip those.
///
/// 2. On the machine (GpuShare). Every hidden-test process on one GPU, whoever started it (two
///    students' grades on a shared server, `ctest -j` running every lesson's solution and stub,
///    compute-sanitizer's runs), shares that GPU while its correctness cases run and has it alone
///    for what is timed: a readers-writer lock of two flocks on files named after the GPU's UUID
///    in /tmp. A process that waits to have the GPU alone closes the gate first, so that no new
///    process starts sharing; it then waits until those that share it now are done (processes
///    that share cannot starve it; several that wait to have it alone take turns in no fixed
///    order). There is no time limit: a process that never lets go (one stopped in a debugger)
///    keeps the others waiting, and their grades say so. Processes that do not use this harness
///    (a student's own program, a benchmark, `grader profile`) are not seen.
///
/// Lock files are created if missing (readable by every user, so that other users' processes can
/// lock them too); flocks go with their process, so a process that dies releases them. A file
/// that cannot be opened is not waited for.
#pragma once

#include <functional>
#include <string>

namespace harness {

/// The lock file to wait on (`--quiet-gpu-lock`; "" = never wait) and what to do about once a
/// second while waiting (main() writes a "waiting_for_quiet_gpu" record, so the grader sees the
/// process alive, also inside a running test; may be empty). `on_machine` is called instead while
/// the wait is for another process on the machine (GpuShare); main() adds "on": "machine".
void set_quiet_gpu_lock(const std::string& path, std::function<void()> heartbeat = {},
                        std::function<void()> on_machine = {});

/// Makes this process one of the machine's users of the GPU `gpu_key` (its UUID, as hex), sharing
/// it from now on (waiting, with the heartbeat, while another has it alone); wait_for_quiet_gpu()
/// then also waits to have it alone. Call before the CUDA context is created. `lock_dir` "" takes
/// no machine-wide lock (the process that started this one holds the GPU alone for it: Nsight
/// Compute's run from lesson 15's profiled test).
void share_gpu_on_machine(const std::string& lock_dir, const std::string& gpu_key);

/// Where the machine-wide lock files live: /tmp, which every user's processes see, except where a
/// service or container gives each its own /tmp (systemd's PrivateTmp, one container per user):
/// there the lock does not reach across, and those processes can time over each other's work.
inline constexpr char kGpuLockDir[] = "/tmp";

/// Blocks until the GPU is quiet: the grade's own lock is had, and the GPU is this process's alone
/// on the machine (after share_gpu_on_machine(); the device is synchronized before its share is
/// left). Heartbeat while waiting; keeps both until release_gpu_locks() or the process's end.
/// Returns at once without locks, once they are had, or for a lock file that cannot be opened
/// (nothing to wait for).
void wait_for_quiet_gpu();

/// Lets go of the grade's lock and of this process's share of the GPU on the machine, once every
/// test has run: the process's CUDA context is torn down after it ends, and a test process that
/// comes next (the grader no longer waits for that end, driver/process.hpp) need not wait for
/// the teardown to take them. Nothing may use the GPU after it.
void release_gpu_locks();

/// Makes the tests of `suite` call wait_for_quiet_gpu() themselves, where they need the GPU
/// alone, instead of having the reporter wait at their start: for a test that may end before it
/// uses the GPU (a timed test of a step whose cases failed, lesson 15's profiled test when the
/// cases it profiles failed), which then does not wait for the memcheck run beside the tests.
/// detail::register_test_waiting_itself() (harness/lesson.hpp) calls it for the tests it registers.
void set_waits_itself(const std::string& suite);
/// Whether the tests of `suite` wait for the quiet GPU themselves (set_waits_itself()).
bool waits_itself(const std::string& suite);

/// Whether the tests of `suite` may run while something else uses the GPU: the correctness cases
/// ("<step>/Correct", "<step>/CorrectLast"); timed ("<step>/Speed") and profiled tests may not
/// (they wait for the quiet GPU: see the file comment for where).
bool runs_beside_other_work(const std::string& suite);

/// One process's hold on the machine-wide lock of one GPU (see the file comment): the files
/// `<dir>/cuda-course-gpu-<key>.gate` and `.lock`. Readers pass the gate (shared) to share the
/// lock; a writer leaves its share, closes the gate (exclusive), then takes the lock (exclusive)
/// once the current readers are done, and keeps both. Whoever waits holds nothing another waiter
/// needs (a sharer holds no gate), so no two waiters wait for each other. Instances within one
/// process exclude each other as processes do (each opens its own file descriptions).
class GpuShare {
 public:
  /// Opens (creating them when missing) the lock files of the GPU `key` in folder `dir`; takes
  /// no lock yet.
  GpuShare(const std::string& dir, const std::string& key);
  ~GpuShare();
  GpuShare(const GpuShare&) = delete;
  GpuShare& operator=(const GpuShare&) = delete;

  /// Whether both files could be opened (otherwise every call returns at once).
  bool usable() const { return gate_ >= 0 && lock_ >= 0; }
  /// Shares the GPU: waits while a writer holds or waits for it, calling `beat` about once a
  /// second.
  void share(const std::function<void()>& beat = {});
  /// Stops sharing it (the caller's work on the GPU must be done).
  void leave();
  /// Has the GPU alone: leaves this process's share, closes the gate, waits for the sharers.
  void take_alone(const std::function<void()>& beat = {});
  /// Whether this process shares the GPU now.
  bool shared() const { return shared_; }
  /// Whether this process has the GPU alone (kept until it is destroyed).
  bool alone() const { return alone_; }

 private:
  int gate_ = -1;
  int lock_ = -1;
  bool shared_ = false;
  bool alone_ = false;
};

}  // namespace harness
