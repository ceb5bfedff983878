// The grader survives what hidden-test processes do: crash, hang, lose their CUDA context, or
// find no GPU. A fake child (fake_child.cpp) acts these out without any GPU.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "build.hpp"
#include "course/config.hpp"
#include "course/manifest.hpp"
#include "devcheck.hpp"
#include "grade.hpp"
#include "process.hpp"
#include "progress.hpp"
#include "test_dir.hpp"

namespace {

namespace fs = std::filesystem;

class Runner : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!course::config::kHaveCuda) GTEST_SKIP() << "built without CUDA: grade() stops earlier";
    dir_ = fs::temp_directory_path() /
           ("grader-runner-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fs::copy_file(FAKE_CHILD, dir_ / "grade_07_transpose");
    manifest_ = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
    options_.binary_dir = dir_.string();
    options_.lesson_bin_dir = dir_.string();
    options_.build = false;
    options_.seed = 42;
    options_.test_timeout = 1.5;
    options_.status_messages = false;
    // Never the machine's own compute-sanitizer (a GPU machine has one): a stand-in, clean
    // unless memcheck stops a kernel.
    options_.sanitizer = stand_in("compute-sanitizer", kMemcheckStandIn).string();
  }
  // A stand-in compute-sanitizer: memcheck as the grade runs it. Logs its call to
  // sanitizer-calls beside it, skips its own options, runs the test process it wraps (the first
  // absolute path) and ends its output as the real one does: one error when memcheck stopped a
  // kernel (the test process then lost its context: exit code 86), else none. The pid file of a
  // hanging test (FAKE_PID_FILE) is left to the grade's own test process.
  static constexpr const char* kMemcheckStandIn =
      "echo \"$*\" >> \"$(dirname \"$0\")/sanitizer-calls\"\n"
      "unset FAKE_PID_FILE\n"  // the hanging test's pid is that of the grader's own test process
      "while [ $# -gt 0 ]; do case \"$1\" in /*) break ;; esac; shift; done\n"
      "\"$@\"\n"
      "rc=$?\n"
      "if [ $rc -eq 86 ]; then\n"
      "  echo '========= Invalid __global__ read of size 4 bytes'\n"
      "  echo '========= ERROR SUMMARY: 1 error'\n"
      "  exit 97\n"
      "fi\n"
      "echo '========= ERROR SUMMARY: 0 errors'\n"
      "exit $rc\n";
  // A stand-in compute-sanitizer whose memcheck also counts an error that stops no kernel (a
  // failed CUDA call) in any process that runs an "apierr" test, besides one error when memcheck
  // stopped a kernel (exit code 86), as kMemcheckStandIn.
  static constexpr const char* kApiErrorStandIn =
      "case \"$*\" in *apierr*) api=1 ;; esac\n"
      "while [ $# -gt 0 ]; do case \"$1\" in /*) break ;; esac; shift; done\n"
      "\"$@\"\n"
      "rc=$?\n"
      "n=0\n"
      "if [ -n \"$api\" ]; then\n"
      "  echo '========= Program hit cudaErrorInvalidValue on CUDA API call to cudaMemcpy'\n"
      "  n=$((n + 1))\n"
      "fi\n"
      "if [ $rc -eq 86 ]; then\n"
      "  echo '========= Invalid __global__ read of size 4 bytes'\n"
      "  n=$((n + 1))\n"
      "fi\n"
      "echo \"========= ERROR SUMMARY: $n errors\"\n"
      "[ $n -gt 0 ] && exit 97\n"
      "exit $rc\n";
  // Writes an executable shell script `name` in the test's folder.
  fs::path stand_in(const std::string& name, const std::string& body) {
    const fs::path path = dir_ / name;
    std::ofstream(path) << "#!/bin/sh\n" << body;
    fs::permissions(path, fs::perms::owner_all);
    return path;
  }
  // The calls the stand-in compute-sanitizer got, one line each.
  std::vector<std::string> sanitizer_calls() const {
    std::vector<std::string> calls;
    std::ifstream in(dir_ / "sanitizer-calls");
    for (std::string line; std::getline(in, line);) calls.push_back(line);
    return calls;
  }
  void TearDown() override {
    fs::remove_all(dir_);
    unsetenv("FAKE_TESTS");
    unsetenv("FAKE_NO_GPU");
    unsetenv("FAKE_ARGS_FILE");
    unsetenv("FAKE_BUSY_WHILE");
    unsetenv("FAKE_IMAGE_PROBLEM");
    unsetenv("FAKE_SLOW_EXIT");
    unsetenv("FAKE_BUSY_COUNT_FILE");
  }
  // Grades 07 with the fake child's `tests`; `device` receives the device record the grade kept.
  course::LessonReport grade(const std::string& tests, nlohmann::json* device = nullptr) {
    setenv("FAKE_TESTS", tests.c_str(), 1);
    nlohmann::json record;
    return driver::grade(course::Selection{manifest_.find("07_transpose"), nullptr}, options_,
                         device != nullptr ? *device : record);
  }
  const course::StepReport& step(const course::LessonReport& r, const std::string& name) {
    for (const course::StepReport& s : r.steps)
      if (s.name == name) return s;
    throw std::runtime_error("no step " + name);
  }
  // What became of a grader that was sent SIGINT while its test process hung.
  struct Interrupted {
    int status = -1;              ///< the grader's wait status
    pid_t test_process = 0;       ///< the hanging process, as it wrote its pid
    double seconds_to_end = 1e9;  ///< from the signal to the grader's end
  };
  // Forks a grader (so that a signal can end it) of one hanging test: `setup` runs in it first
  // and `done` gets its report. Sends it SIGINT once the test process hangs and waits for it.
  Interrupted interrupt_hanging_grader(
      const std::function<void()>& setup,
      const std::function<void(const course::LessonReport&)>& done) {
    Interrupted out;
    const fs::path pid_file = dir_ / "hanging.pid";
    setenv("FAKE_PID_FILE", pid_file.c_str(), 1);
    const pid_t grader = fork();
    if (grader < 0) {  // never kill(-1, ...): that would reach every process we may signal
      ADD_FAILURE() << "fork failed";
      return out;
    }
    if (grader == 0) {
      setup();
      done(grade("naive/T.hang"));
      _exit(0);
    }
    unsetenv("FAKE_PID_FILE");
    for (int i = 0; i < 500 && !fs::exists(pid_file); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::ifstream(pid_file) >> out.test_process;
    EXPECT_GT(out.test_process, 0) << "the hanging test never started";
    const auto signalled = std::chrono::steady_clock::now();
    ::kill(grader, out.test_process > 0 ? SIGINT : SIGKILL);
    EXPECT_EQ(::waitpid(grader, &out.status, 0), grader);
    out.seconds_to_end =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
    return out;
  }
  fs::path dir_;
  course::Manifest manifest_;
  driver::GradeOptions options_;
};

TEST_F(Runner, AllPass) {
  const auto r = grade(
      "naive/T.pass:tiled/T.pass:tiled_padded/T.pass:tiled_cp_async/T.pass:padded_32x32/T.pass");
  EXPECT_EQ(r.status, course::LessonStatus::pass);
  for (const auto& s : r.steps) EXPECT_EQ(s.status, course::StepStatus::pass) << s.name;
}

// Once the test process has written its "exit" record, the grade has every result: it goes on
// without waiting for the process's teardown (a CUDA context's, 0.1 s and more on our H200), whose
// process it kills. Under a wrapper (compute-sanitizer, whose findings come after the tests'
// process ends) it waits for the end, as before.
TEST_F(Runner, TheGradeGoesOnOnceTheTestProcessSaysItIsDone) {
  setenv("FAKE_SLOW_EXIT", "20", 1);
  setenv("FAKE_ARGS_FILE", (dir_ / "test-process-args").c_str(), 1);
  options_.kind = course::RunKind::quick;
  const auto started = std::chrono::steady_clock::now();
  const auto r = grade("naive/T.pass:tiled/T.fail");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(seconds, 10.0) << "the grade waited for the test process's slow exit";
  EXPECT_EQ(r.status, course::LessonStatus::fail);
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::fail);
  // One process ran every test: its exit record (code 1) is an ordinary end, not a breakdown
  // that calls for another process.
  std::ifstream in(dir_ / "test-process-args");
  int processes = 0;
  for (std::string line; std::getline(in, line);) ++processes;
  EXPECT_EQ(processes, 1);
}

// A test process killed once it said it was done may still be ending (its CUDA context's
// teardown): the grader's next test process starts only once it is gone, and it is reaped.
TEST_F(Runner, TheNextGradeStartsOnceTheLastTestProcessIsGone) {
  options_.kind = course::RunKind::quick;
  const pid_t ending = fork();  // stands in for it: gone 0.4 s from now
  ASSERT_GE(ending, 0);
  if (ending == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    _exit(0);
  }
  driver::note_ended_test_process(ending);
  const auto started = std::chrono::steady_clock::now();
  grade("naive/T.pass");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GE(seconds, 0.3) << "the grade's test process did not wait for the one still ending";
  EXPECT_FALSE(fs::exists("/proc/" + std::to_string(ending))) << "never reaped";
  if (fs::exists("/proc/" + std::to_string(ending))) ::waitpid(ending, nullptr, 0);
}

TEST_F(Runner, UnderComputeSanitizerTheGradeWaitsForTheTestProcessToEnd) {
  setenv("FAKE_SLOW_EXIT", "1.5", 1);
  options_.kind = course::RunKind::sanitize;
  options_.sanitize_tools = {"memcheck"};
  const auto started = std::chrono::steady_clock::now();
  const auto r = grade("naive/T.pass");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_GE(seconds, 1.5) << "the grade did not wait for compute-sanitizer's end";
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(sanitizer_calls().size(), 1u);
}

// A step this machine cannot grade (every test skipped: too little memory) does not fail the
// lesson; a step with one test skipped and one failed still fails.
TEST_F(Runner, AStepThatCannotBeGradedHereDoesNotFailTheLesson) {
  const auto r = grade(
      "naive/T.pass:tiled/T.skip:tiled/U.skip:tiled_padded/T.pass:tiled_cp_async/T.pass:"
      "padded_32x32/T.pass");
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::skipped);
  EXPECT_EQ(r.status, course::LessonStatus::pass);
  const auto f = grade("naive/T.pass:tiled/T.skip:tiled/U.fail:tiled_padded/T.pass");
  EXPECT_EQ(step(f, "tiled").status, course::StepStatus::fail);
  EXPECT_EQ(f.status, course::LessonStatus::fail);
}

TEST_F(Runner, CrashIsAFailAndTheRestStillRun) {
  const auto r = grade("naive/T.crash:naive/T.pass:tiled/T.pass:tiled_padded/T.pass");
  EXPECT_EQ(r.status, course::LessonStatus::fail);
  const auto& naive = step(r, "naive");
  EXPECT_EQ(naive.status, course::StepStatus::fail);
  ASSERT_EQ(naive.problems.size(), 1u);
  EXPECT_EQ(naive.problems[0].status, course::TestStatus::crashed);
  EXPECT_NE(naive.problems[0].failures.at(0).find("signal 11"), std::string::npos);
  EXPECT_EQ(naive.tests_passed, 1);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "tiled_padded").status, course::StepStatus::pass);
}

TEST_F(Runner, StickyErrorRestartsForTheRemainingTests) {
  const auto r =
      grade("naive/T.sticky:naive/T.pass:tiled/T.sticky:tiled/T.pass:tiled_padded/T.pass");
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::fail);
  EXPECT_EQ(step(r, "naive").tests_passed, 1);
  EXPECT_EQ(step(r, "tiled").tests_passed, 1);
  EXPECT_EQ(step(r, "tiled_padded").status, course::StepStatus::pass);
}

TEST_F(Runner, HangIsKilledAndReported) {
  const auto r = grade("naive/T.pass:tiled/T.hang:tiled_padded/T.pass");
  const auto& tiled = step(r, "tiled");
  EXPECT_EQ(tiled.status, course::StepStatus::fail);
  ASSERT_EQ(tiled.problems.size(), 1u);
  EXPECT_EQ(tiled.problems[0].status, course::TestStatus::timed_out);
  EXPECT_NE(tiled.problems[0].failures.at(0).find("never finishes"), std::string::npos);
  EXPECT_EQ(step(r, "tiled_padded").status, course::StepStatus::pass);
}

TEST_F(Runner, NoGpuStopsWithItsOwnStatus) {
  setenv("FAKE_NO_GPU", "1", 1);
  const auto r = grade("naive/T.pass");
  EXPECT_EQ(r.status, course::LessonStatus::no_gpu);
  EXPECT_NE(r.message.find("fake: no device"), std::string::npos);
  course::Report whole;
  whole.lessons.push_back(r);
  EXPECT_EQ(whole.exit_code(), course::kExitNoGpu);
}

// Kernels compiled for another GPU (device images of a build folder configured for a T4, run on
// an L4): the grade stops with the harness's reason and fix, as "unsupported" (exit code 3), not
// as "no GPU" and not as every test failing with cudaErrorInvalidDeviceFunction.
TEST_F(Runner, DeviceImagesForAnotherGpuStopWithTheFix) {
  setenv("FAKE_IMAGE_PROBLEM", "images for sm_75 only, and this GPU is sm_90: use `native`", 1);
  nlohmann::json device;
  const auto r = grade("naive/T.pass:tiled/T.pass", &device);
  EXPECT_EQ(r.status, course::LessonStatus::unsupported);
  EXPECT_EQ(device.value("name", ""), "Fake GPU");  // the report names the GPU it could not use
  EXPECT_EQ(r.message, "images for sm_75 only, and this GPU is sm_90: use `native`");
  EXPECT_TRUE(r.steps.empty());
  course::Report whole;
  whole.lessons.push_back(r);
  EXPECT_EQ(whole.exit_code(), course::kExitNoGpu);
}

// `grader dev check` on such a folder: the variant reports the reason as "unsupported" (the
// lesson's other variants are then skipped, once), not as a drift of the solution.
TEST_F(Runner, DevCheckSkipsALessonWhoseImagesAreForAnotherGpu) {
  fs::copy_file(FAKE_CHILD, dir_ / "grade_07_transpose__solution");
  setenv("FAKE_IMAGE_PROBLEM", "images for sm_75 only, and this GPU is sm_90", 1);
  setenv("FAKE_TESTS", "naive/T.pass:tiled/T.pass", 1);
  const driver::VariantOutcome out = driver::grade_variant(
      *manifest_.find("07_transpose"), "solution", driver::DevCheckOptions{}, options_);
  EXPECT_EQ(out.unsupported, "images for sm_75 only, and this GPU is sm_90");
  EXPECT_EQ(out.problem, "");
  EXPECT_EQ(out.no_gpu, "");
}

// Tests that find no GPU end the grade at once: memcheck beside them, which may find one where
// they did not (compute-sanitizer's process saw the H200 with CUDA_VISIBLE_DEVICES empty) and run
// a kernel that never ends for the kernel time limit, is killed, not waited for.
TEST_F(Runner, NoGpuForTheTestsStopsMemcheckBesideThem) {
  options_.sanitizer =
      stand_in("runs-long", "echo \"$*\" >> \"$(dirname \"$0\")/sanitizer-calls\"\nsleep 30\n")
          .string();
  setenv("FAKE_NO_GPU", "1", 1);
  const auto started = std::chrono::steady_clock::now();
  const auto r = grade("naive/T.pass:tiled/T.pass");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.status, course::LessonStatus::no_gpu);
  // memcheck's run had begun (its folder is made before its process starts; whether the stand-in
  // wrote its call before it was killed is a race).
  EXPECT_TRUE(fs::exists(dir_ / "grader-runs" / "grade_07_transpose" / "memcheck-beside"));
  EXPECT_LT(seconds, 10) << "the grade waited for memcheck";
}

// A grade in which no step passes has no use for memcheck's verdict: it ends with its tests,
// without waiting for the memcheck run beside them.
TEST_F(Runner, NoStepPassedStopsMemcheckBesideTheTests) {
  options_.sanitizer =
      stand_in("runs-long", "echo \"$*\" >> \"$(dirname \"$0\")/sanitizer-calls\"\nsleep 30\n")
          .string();
  const auto started = std::chrono::steady_clock::now();
  const auto r = grade("naive/T.fail:tiled/T.fail:tiled_padded/T.fail");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::fail);
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::not_needed);
  EXPECT_TRUE(fs::exists(dir_ / "grader-runs" / "grade_07_transpose" / "memcheck-beside"));
  EXPECT_LT(seconds, 10) << "the grade waited for memcheck";
}

TEST_F(Runner, OneStepOnly) {
  setenv("FAKE_TESTS", "tiled/T.fail", 1);
  nlohmann::json device;
  const course::Lesson* l = manifest_.find("07_transpose");
  const auto r = driver::grade(course::Selection{l, l->find_step("tiled")}, options_, device);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].name, "tiled");
  EXPECT_EQ(r.steps[0].status, course::StepStatus::fail);
  EXPECT_EQ(device.value("name", ""), "Fake GPU");
}

// `dev calibrate` runs only each step's timed test: the correctness cases (a failing one here)
// are not run, so the step counts one test; a step without a timed test is left out.
TEST_F(Runner, SpeedTestsOnlyRunsOnlyTheTimedTests) {
  options_.speed_tests_only = true;
  options_.kind = course::RunKind::quick;
  const auto r = grade(
      "naive/T.fail:naive/Speed.timed:tiled/T.fail:tiled/Speed.timed:"
      "tiled_padded/T.fail");
  ASSERT_EQ(r.steps.size(), 2u);
  for (const auto& s : r.steps) {
    EXPECT_TRUE(s.name == "naive" || s.name == "tiled") << s.name;
    EXPECT_EQ(s.status, course::StepStatus::pass) << s.name;
    EXPECT_EQ(s.tests_total, 1) << s.name;
  }
  EXPECT_EQ(r.status, course::LessonStatus::pass);
  // Nothing timed among the selected steps: an error, never a pass with no step.
  const auto none = grade("naive/T.pass:tiled/T.pass");
  EXPECT_EQ(none.status, course::LessonStatus::error);
  EXPECT_TRUE(none.steps.empty());
}

// A second grader of the same target waits for the first (grader watch beside a manual run):
// they used to share one run folder, and the second deleted the first one's reports mid-run.
TEST_F(Runner, GradingWaitsWhileAnotherGraderHoldsTheTarget) {
  const fs::path lock = dir_ / "grader-runs" / "grade_07_transpose.lock";
  fs::create_directories(lock.parent_path());
  const int other = ::open(lock.c_str(), O_RDWR | O_CREAT, 0644);  // stands in for the other
  ASSERT_GE(other, 0);
  ASSERT_EQ(::flock(other, LOCK_EX), 0);
  std::atomic<bool> done{false};
  course::LessonReport r;
  std::thread grader([&] {
    r = grade("naive/T.pass:tiled/T.pass");
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // a free run takes ~20 ms
  EXPECT_FALSE(done) << "graded while another grader held grade_07_transpose";
  ::close(other);  // the other grader ends
  grader.join();
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::pass);
}

// Ctrl-C reaches the grader but not the test process (its own process group): the grader must
// stop it before it goes, or it would keep running on the GPU (and in its run folder).
TEST_F(Runner, StoppingTheGraderStopsItsTestProcess) {
  options_.test_timeout = 60;
  const Interrupted r = interrupt_hanging_grader([] {}, [](const auto&) {});
  ASSERT_GT(r.test_process, 0);  // 0 or less would make the kill below reach a process group
  EXPECT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGINT) << "status " << r.status;
  EXPECT_LT(r.seconds_to_end, 5.0) << "the grader did not act on the signal (test timeout 60 s)";
  const bool gone = ::kill(r.test_process, 0) == -1;
  EXPECT_TRUE(gone) << "test process " << r.test_process << " still runs";
  if (!gone) ::kill(r.test_process, SIGKILL);  // leave no hanging process behind the test
}

// A grader started with SIGINT ignored (a background job of a script) keeps ignoring it: the
// test process runs on, here until the grader's own timeout stops it.
TEST_F(Runner, AnIgnoredSignalStopsNothing) {
  const fs::path verdict = dir_ / "verdict";
  const Interrupted r = interrupt_hanging_grader(
      [] { signal(SIGINT, SIG_IGN); },
      [&](const course::LessonReport& report) {
        std::ofstream(verdict) << to_string(step(report, "naive").problems.at(0).status);
      });
  ASSERT_GT(r.test_process, 0);
  EXPECT_TRUE(WIFEXITED(r.status)) << "status " << r.status;
  std::string seen;
  std::ifstream(verdict) >> seen;
  EXPECT_EQ(seen, "timed_out");  // "crashed" would mean the SIGINT killed it
}

TEST_F(Runner, AnUnwritableBuildTreeIsAnErrorReportNotACrash) {
  std::ofstream(dir_ / "grader-runs") << "a file where the grader's folder should be\n";
  const course::LessonReport r = grade("naive/T.pass");
  EXPECT_EQ(r.status, course::LessonStatus::error);
  EXPECT_NE(r.message.find("cannot write the grader's logs under"), std::string::npos) << r.message;
}

// --sanitize: each tool's finding is listed before the tests it broke, a tool asked for twice
// runs once, and every record's "output in FILE" still holds that run's output at the end.
TEST_F(Runner, SanitizerFindingsComeFirstAndKeepTheirLogs) {
  // A stand-in compute-sanitizer: skips its own options, runs the test process it wraps (the
  // first absolute path), then reports one error the way the real one ends its output.
  options_.sanitizer = stand_in("always-finds",
                                "while [ $# -gt 0 ]; do case \"$1\" in /*) break ;; esac; "
                                "shift; done\n"
                                "\"$@\"\n"
                                "echo '========= Invalid __global__ read of size 16 bytes'\n"
                                "echo '========= ERROR SUMMARY: 1 error'\n"
                                "exit 97\n")
                           .string();
  setenv("FAKE_TESTS", "naive/T.crash_a:naive/T.pass_b", 1);
  const course::Lesson* lesson = manifest_.find("07_transpose");
  nlohmann::json device;
  options_.kind = course::RunKind::sanitize;
  options_.sanitize_tools = {"memcheck", "racecheck", "memcheck"};
  const course::LessonReport r =
      driver::grade({lesson, lesson->find_step("naive")}, options_, device);
  const course::StepReport& s = step(r, "naive");
  ASSERT_EQ(s.status, course::StepStatus::fail);
  EXPECT_EQ(s.tests_total, 4);  // two tests, then memcheck and racecheck once each
  ASSERT_EQ(s.problems.size(), 3u);
  EXPECT_EQ(s.problems[0].name, "naive/compute-sanitizer.memcheck");
  EXPECT_EQ(s.problems[1].name, "naive/compute-sanitizer.racecheck");
  EXPECT_EQ(s.problems[2].name, "naive/T.crash_a");
  EXPECT_EQ(s.reason.rfind("compute-sanitizer memcheck, racecheck reported errors; ", 0), 0u)
      << s.reason;
  EXPECT_NE(s.problems[0].failures.at(0).find("then makes the launch fail"), std::string::npos);
  EXPECT_NE(s.problems[0].failures.at(0).find("Invalid __global__ read"), std::string::npos);
  // The crash was seen in memcheck's run; racecheck's run must not have replaced its log.
  const std::string& crash = s.problems[2].failures.at(0);
  const std::string log = crash.substr(crash.find("output in ") + 10);
  EXPECT_NE(log.find("memcheck-naive"), std::string::npos) << log;
  EXPECT_TRUE(fs::exists(log)) << log;
}

TEST(CompilerErrors, KeepsErrorLinesWithContext) {
  const std::string log =
      "[1/3] Building CUDA object a.o\nFAILED: a.o\nexercises/07_transpose/transpose.cu(20): "
      "error: identifier \"tile\" is undefined\n  tile[0][0] = 1;\n  ^\n\n1 error detected\n";
  const std::string kept = driver::compiler_errors(log);
  EXPECT_NE(kept.find("identifier \"tile\" is undefined"), std::string::npos);
  EXPECT_NE(kept.find("tile[0][0] = 1;"), std::string::npos);
  EXPECT_EQ(kept.find("Building CUDA object"), std::string::npos);
}

// Memcheck by default: a kernel that reads past its input passes its tests (reads do not fault,
// the output is right); memcheck's finding fails the step, listed first.
TEST_F(Runner, MemcheckFindingFailsAPassingStep) {
  const auto r = grade("naive/T.oob:naive/T.pass:tiled/T.pass:tiled_padded/T.pass");
  EXPECT_EQ(r.status, course::LessonStatus::fail);
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::ran);
  const auto& naive = step(r, "naive");
  EXPECT_EQ(naive.status, course::StepStatus::fail);
  EXPECT_EQ(naive.memcheck, course::StepMemcheck::errors);
  EXPECT_EQ(naive.tests_total, 3);  // its two tests, then memcheck
  ASSERT_EQ(naive.problems.size(), 1u);
  EXPECT_EQ(naive.problems[0].name, "naive/compute-sanitizer.memcheck");
  const std::string& found = naive.problems[0].failures.at(0);
  EXPECT_NE(found.find("compute-sanitizer memcheck found 1 error"), std::string::npos) << found;
  EXPECT_NE(found.find("Invalid __global__ read of size 4 bytes"), std::string::npos) << found;
  EXPECT_NE(found.find("naive/T.oob failed"), std::string::npos) << found;
  EXPECT_NE(naive.reason.find("memcheck found errors"), std::string::npos) << naive.reason;
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "tiled").memcheck, course::StepMemcheck::clean);
  EXPECT_EQ(step(r, "tiled").tests_total, 2);
  // Beside the tests, a second process after the finding ended the first; the finding sends the
  // steps that passed to the stage after the tests, which runs the same way.
  EXPECT_EQ(sanitizer_calls().size(), 4u);
  EXPECT_FALSE(fs::exists(dir_ / "grader-runs" / "grade_07_transpose" / "memcheck-naive"));
}

// Beside the tests, once per grading, over every selected step; a verdict only for the steps that
// passed their tests and gate. The test process gets the lock its timed tests wait on; the run
// under memcheck does not (nothing there is timed).
TEST_F(Runner, MemcheckRunsOnceBesideTheTests) {
  setenv("FAKE_ARGS_FILE", (dir_ / "test-process-args").c_str(), 1);
  const auto r = grade(
      "naive/T.pass:tiled/T.fail:tiled_padded/T.pass:tiled_cp_async/T.pass:padded_32x32/T.pass");
  unsetenv("FAKE_ARGS_FILE");
  const std::vector<std::string> calls = sanitizer_calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_NE(calls[0].find("--tool memcheck"), std::string::npos) << calls[0];
  EXPECT_NE(calls[0].find("--quick"), std::string::npos) << calls[0];  // small shapes, untimed
  EXPECT_NE(calls[0].find("padded_32x32/T.pass"), std::string::npos) << calls[0];
  EXPECT_NE(calls[0].find("tiled/T.fail"), std::string::npos) << calls[0];
  EXPECT_EQ(calls[0].find("--quiet-gpu-lock"), std::string::npos) << calls[0];
  std::vector<std::string> processes;  // the arguments of every test process, one line each
  std::ifstream args(dir_ / "test-process-args");
  for (std::string line; std::getline(args, line);) processes.push_back(line);
  const std::string lock = (dir_ / "grader-runs" / "grade_07_transpose.quiet-gpu.lock").string();
  ASSERT_EQ(processes.size(), 2u);  // the tests, and the same under memcheck
  EXPECT_EQ(std::count_if(processes.begin(), processes.end(),
                          [&](const std::string& p) {
                            return p.find("--quiet-gpu-lock " + lock) != std::string::npos;
                          }),
            1);
  EXPECT_EQ(step(r, "tiled").memcheck, course::StepMemcheck::not_run);
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::clean);
  EXPECT_EQ(step(r, "naive").tests_passed, 2);  // its test and memcheck
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::ran);
  EXPECT_NE(r.memcheck_note.find("no errors in naive, tiled_padded, tiled_cp_async, padded_32x32"),
            std::string::npos)
      << r.memcheck_note;
  EXPECT_TRUE(fs::exists(dir_ / "grader-runs" / "grade_07_transpose" / "memcheck-beside"));
}

// The run beside the tests happens; without a step that passed there is no verdict to give.
TEST_F(Runner, NoMemcheckVerdictWhenNoStepPassed) {
  const auto r = grade("naive/T.fail:tiled/T.fail");
  // Beside the tests (stopped once no step passed, perhaps before it wrote its call), none after.
  EXPECT_LE(sanitizer_calls().size(), 1u);
  EXPECT_TRUE(fs::exists(dir_ / "grader-runs" / "grade_07_transpose" / "memcheck-beside"));
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::not_needed);
  EXPECT_TRUE(r.memcheck_note.empty());
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::not_run);
}

// A test that passes on its own and fails under memcheck, which reports nothing, still fails
// the step: the kernel behaves differently there (a race, a read of memory it never wrote).
TEST_F(Runner, TestsThatFailOnlyUnderMemcheckFailTheStep) {
  const auto r = grade("naive/T.quickfail:tiled/T.pass:tiled_padded/T.pass");
  const auto& naive = step(r, "naive");
  EXPECT_EQ(naive.status, course::StepStatus::fail);
  EXPECT_EQ(naive.memcheck, course::StepMemcheck::tests_failed);
  ASSERT_EQ(naive.problems.size(), 1u);
  EXPECT_NE(naive.problems[0].failures.at(0).find("memcheck reported no error, but under it 1 "
                                                  "test that passed without it did not"),
            std::string::npos)
      << naive.problems[0].failures.at(0);
  EXPECT_EQ(step(r, "tiled").memcheck, course::StepMemcheck::clean);
  // Beside the tests (their time limits), then that step alone again, with memcheck's own.
  const std::vector<std::string> calls = sanitizer_calls();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_NE(calls[1].find("naive/T.quickfail"), std::string::npos) << calls[1];
  EXPECT_EQ(calls[1].find("tiled/T.pass"), std::string::npos) << calls[1];
  EXPECT_NE(calls[1].find("--kernel-timeout 60"), std::string::npos) << calls[1];
}

// Errors that stop no kernel (a failed CUDA call) in a process that ran several steps cannot be
// told apart: those steps run under memcheck again, one by one, and only the guilty one fails.
TEST_F(Runner, MemcheckFindingsThatStopNoKernelAreTracedToTheirStep) {
  options_.sanitizer = stand_in("api-errors", kApiErrorStandIn).string();
  const auto r = grade("naive/T.pass:tiled/T.apierr:tiled_padded/T.pass");
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::clean);
  EXPECT_EQ(step(r, "tiled").memcheck, course::StepMemcheck::errors);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::fail);
  EXPECT_NE(step(r, "tiled").problems.at(0).failures.at(0).find("cudaErrorInvalidValue"),
            std::string::npos);
  EXPECT_EQ(step(r, "tiled_padded").memcheck, course::StepMemcheck::clean);
  EXPECT_TRUE(fs::exists(dir_ / "grader-runs" / "grade_07_transpose" / "memcheck-beside-tiled"));
}

// A test that waits for the GPU (lesson 02's leak check waits for memcheck inside a running test)
// says so once a second: longer than the test time limit (1.5 s here), it is alive, not hung.
TEST_F(Runner, ATestWaitingForTheGpuIsNotHung) {
  const auto r = grade("naive/T.waits:tiled/T.pass");
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "naive").tests_passed, 2);  // its test and memcheck
}

// A wait for another hidden-test process on the machine (harness/quiet_gpu.hpp, GpuShare) is not
// a hang either, and the grade says once why it waits; a wait for its own memcheck says nothing.
TEST_F(Runner, AWaitForAnotherGradeOnTheMachineIsSaidOnce) {
  options_.status_messages = true;
  ::testing::internal::CaptureStderr();
  const auto r = grade("naive/T.waitsmachine:tiled/T.waitsmachine:tiled_padded/T.waits");
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::pass);
  const std::string words = "waiting for the GPU: another grade or test of the course";
  const auto first = said.find(words);
  ASSERT_NE(first, std::string::npos) << said;
  EXPECT_EQ(said.find(words, first + 1), std::string::npos) << "said more than once:\n" << said;

  options_.status_messages = true;
  ::testing::internal::CaptureStderr();
  grade("naive/T.waits");
  EXPECT_EQ(::testing::internal::GetCapturedStderr().find(words), std::string::npos);
}

// A failing step's kernel that memcheck stops ends the process it shares with a passing step's
// tests, and takes that step's findings along (errors that stop no kernel): the run beside the
// tests found errors, so every step that passed is checked again after them, as before, and the
// passing step's own error fails it.
TEST_F(Runner, AFailingStepCannotHideAPassingStepsFinding) {
  options_.sanitizer = stand_in("api-errors", kApiErrorStandIn).string();
  const auto r = grade("naive/T.apierr:tiled/T.fail:tiled/T.oob:tiled_padded/T.pass");
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::errors);
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::fail);
  EXPECT_NE(step(r, "naive").problems.at(0).failures.at(0).find("cudaErrorInvalidValue"),
            std::string::npos);
  EXPECT_EQ(step(r, "tiled_padded").memcheck, course::StepMemcheck::clean);
  EXPECT_EQ(step(r, "tiled").memcheck, course::StepMemcheck::not_run);
}

// A GPU in an exclusive compute mode gives one process a context at a time: the tests, finding
// it busy with memcheck's beside them, run again alone, then memcheck after them.
TEST_F(Runner, AnExclusiveGpuRunsTheTestsAgainAlone) {
  const fs::path busy = dir_ / "busy";
  std::ofstream(busy) << "memcheck's process holds the GPU\n";
  setenv("FAKE_BUSY_WHILE", busy.c_str(), 1);
  options_.sanitizer =
      stand_in("exclusive",
               "echo \"$*\" >> \"$(dirname \"$0\")/sanitizer-calls\"\n"
               "while [ $# -gt 0 ]; do case \"$1\" in /*) break ;; esac; shift; done\n"
               "env -u FAKE_BUSY_WHILE \"$@\"\n"
               "rc=$?\n"
               "sleep 0.3\n"
               "rm -f \"$FAKE_BUSY_WHILE\"\n"
               "echo '========= ERROR SUMMARY: 0 errors'\n"
               "exit $rc\n")
          .string();
  const auto r = grade(
      "naive/T.pass:tiled/T.pass:tiled_padded/T.pass:tiled_cp_async/T.pass:padded_32x32/T.pass");
  unsetenv("FAKE_BUSY_WHILE");
  EXPECT_EQ(r.status, course::LessonStatus::pass) << r.message;
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::ran);
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::clean);
  EXPECT_EQ(sanitizer_calls().size(), 2u);  // beside the first try, then after the tests
}

// A GPU in an exclusive compute mode that a test process which has just ended still holds (a grade
// just before this one no longer waits for that process's teardown): the grade tries again after
// half a second, twice, before it says there is no usable GPU.
TEST_F(Runner, AnExclusiveGpuStillHeldByAnEndedProcessIsTriedAgain) {
  const fs::path busy = dir_ / "busy-runs";
  const fs::path args = dir_ / "test-process-args";
  setenv("FAKE_BUSY_COUNT_FILE", busy.c_str(), 1);
  setenv("FAKE_ARGS_FILE", args.c_str(), 1);
  options_.kind = course::RunKind::quick;
  auto processes = [&] {
    std::ifstream in(args);
    int count = 0;
    for (std::string line; std::getline(in, line);) ++count;
    return count;
  };
  std::ofstream(busy) << "1\n";  // busy for the first run only
  const auto r = grade("naive/T.pass");
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass) << r.message;
  EXPECT_EQ(processes(), 2);
  // The busy try leaves no records behind.
  const fs::path runs = dir_ / "grader-runs" / "grade_07_transpose" / "grade";
  EXPECT_FALSE(fs::exists(runs / "run-0.jsonl"));
  EXPECT_TRUE(fs::exists(runs / "run-1.jsonl"));

  // Held for good: no usable GPU, after three tries.
  std::ofstream(busy) << "100\n";
  fs::remove(args);
  const auto held = grade("naive/T.pass");
  EXPECT_EQ(held.status, course::LessonStatus::no_gpu);
  EXPECT_NE(held.message.find("cudaErrorDevicesUnavailable"), std::string::npos) << held.message;
  EXPECT_EQ(processes(), 3);
}

// --quick: no memcheck, said in the report (text and JSON), and never recorded as progress.
TEST_F(Runner, QuickSkipsMemcheckSaysSoAndRecordsNoProgress) {
  options_.kind = course::RunKind::quick;
  const auto r = grade("naive/T.pass:tiled/T.pass:tiled_padded/T.pass");
  EXPECT_TRUE(sanitizer_calls().empty());
  EXPECT_EQ(r.kind, course::RunKind::quick);
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::skipped);
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::not_run);
  course::Report whole;
  whole.lessons.push_back(r);
  const std::string text = course::to_text(whole, course::TextOptions{});
  EXPECT_NE(text.find("memcheck: not run (--quick)"), std::string::npos) << text;
  const nlohmann::json j = course::to_json(whole);
  EXPECT_EQ(j["lessons"][0]["quick"], true);
  EXPECT_EQ(j["lessons"][0]["memcheck"]["status"], "skipped");
  EXPECT_EQ(j["lessons"][0]["steps"][0]["memcheck"], "not_run");
  driver::Progress progress((dir_ / "progress.json").string());
  EXPECT_FALSE(progress.update(r, "2026-01-01T00:00:00Z"));
  EXPECT_FALSE(progress.step_passed("07_transpose", "naive"));
}

// The cases of several GiB (lesson 03's 2^31 elements) run in a plain grade and are skipped,
// with the reason, under skip_large (the grader's --quick, `dev check --skip-large`).
TEST_F(Runner, SkipLargeSkipsOnlyTheLargeCases) {
  const std::string tests = "naive/T.pass:tiled/T.large";
  const auto plain = grade(tests);
  EXPECT_EQ(step(plain, "tiled").status, course::StepStatus::pass);
  fs::remove(dir_ / "sanitizer-calls");  // the plain grade's memcheck call
  options_.skip_large = true;
  const auto r = grade(tests);
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  const course::StepReport& tiled = step(r, "tiled");
  EXPECT_EQ(tiled.status, course::StepStatus::skipped);
  ASSERT_EQ(tiled.skip_reasons.size(), 1u);
  EXPECT_EQ(tiled.skip_reasons[0].first, "large shape skipped");
  // memcheck still runs, and its call takes --quick (which implies the skip), never both flags
  const std::vector<std::string> calls = sanitizer_calls();
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_NE(calls[0].find("--quick"), std::string::npos) << calls[0];
  EXPECT_EQ(calls[0].find("--skip-large"), std::string::npos) << calls[0];
}

// A whole lesson's --quick leaves out the profiler (--skip-profiled); one step asked for by name
// under --quick, and every grade without --quick, keep it.
TEST_F(Runner, QuickOnAWholeLessonSkipsTheProfilerOnly) {
  const std::string tests = "naive/T.pass:tiled/T.pass";
  const fs::path args = dir_ / "test-process-args";
  setenv("FAKE_ARGS_FILE", args.c_str(), 1);
  auto calls = [&](const course::Selection& sel) {
    fs::remove(args);
    setenv("FAKE_TESTS", tests.c_str(), 1);
    nlohmann::json device;
    driver::grade(sel, options_, device);
    std::vector<std::string> lines;
    std::ifstream in(args);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  };
  auto skipping = [](const std::vector<std::string>& lines) {
    return std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
      return l.find("--skip-profiled") != std::string::npos;
    });
  };
  const course::Lesson* lesson = manifest_.find("07_transpose");
  const std::vector<std::string> full = calls({lesson, nullptr});
  ASSERT_FALSE(full.empty());
  EXPECT_EQ(skipping(full), 0) << full[0];
  options_.make_quick();
  const std::vector<std::string> quick = calls({lesson, nullptr});
  ASSERT_EQ(quick.size(), 1u);  // no memcheck under --quick
  EXPECT_EQ(skipping(quick), 1) << quick[0];
  const std::vector<std::string> one = calls({lesson, lesson->find_step("tiled")});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(skipping(one), 0) << one[0];
  unsetenv("FAKE_ARGS_FILE");
}

// Without compute-sanitizer the steps keep their verdicts, and the report says why once.
TEST_F(Runner, WithoutComputeSanitizerGradesWithoutItAndSaysSoOnce) {
  options_.sanitizer = (dir_ / "no-such-compute-sanitizer").string();
  course::Report whole;
  for (int i = 0; i < 2; ++i)  // as --all would: once per lesson
    whole.lessons.push_back(grade("naive/T.pass:tiled/T.pass:tiled_padded/T.pass"));
  const course::LessonReport& r = whole.lessons[0];
  EXPECT_EQ(r.status, course::LessonStatus::pass);
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::unavailable);
  EXPECT_NE(r.memcheck_note.find("no-such-compute-sanitizer is not an executable file"),
            std::string::npos)
      << r.memcheck_note;
  EXPECT_EQ(step(r, "naive").status, course::StepStatus::pass);
  EXPECT_EQ(step(r, "naive").memcheck, course::StepMemcheck::not_run);
  const std::string text = course::to_text(whole, course::TextOptions{});
  const auto first = text.find("memcheck: not run");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find("memcheck: not run", first + 1), std::string::npos) << text;
  EXPECT_EQ(whole.exit_code(), course::kExitOk);
}

// compute-sanitizer without a usable device prints its banner and exits without running the
// tests. The grader read that as "no test ever ran" (exit 1); no usable GPU is exit 3, whatever
// the wrapper does.
constexpr const char* kSanitizerWithoutDevice =
    "echo '========= COMPUTE-SANITIZER'\n"
    "echo '========= Error: stand-in: no CUDA-capable device is available'\n"
    "exit 1\n";

course::LessonReport sanitize_naive(const course::Manifest& m, driver::GradeOptions o) {
  setenv("FAKE_TESTS", "naive/T.pass", 1);
  const course::Lesson* lesson = m.find("07_transpose");
  nlohmann::json device;
  o.kind = course::RunKind::sanitize;
  o.sanitize_tools = {"memcheck"};
  return driver::grade({lesson, lesson->find_step("naive")}, o, device);
}

TEST_F(Runner, NoGpuUnderASanitizerThatRunsNothingIsNoGpu) {
  options_.sanitizer = stand_in("no-device", kSanitizerWithoutDevice).string();
  setenv("FAKE_NO_GPU", "1", 1);
  const course::LessonReport r = sanitize_naive(manifest_, options_);
  EXPECT_EQ(r.status, course::LessonStatus::no_gpu) << r.message;
  EXPECT_NE(r.message.find("fake: no device"), std::string::npos) << r.message;
  course::Report whole;
  whole.lessons.push_back(r);
  EXPECT_EQ(whole.exit_code(), course::kExitNoGpu);
}

// The same probe finds the build folder's device images made for another GPU: that process exits
// as one without a GPU does, but the grade says what it said, not "no usable GPU".
TEST_F(Runner, DeviceImagesForAnotherGpuUnderASanitizerThatRunsNothing) {
  options_.sanitizer = stand_in("no-device", kSanitizerWithoutDevice).string();
  setenv("FAKE_IMAGE_PROBLEM", "images for sm_75 only, and this GPU is sm_90", 1);
  const course::LessonReport r = sanitize_naive(manifest_, options_);
  EXPECT_EQ(r.status, course::LessonStatus::unsupported) << r.message;
  EXPECT_EQ(r.message, "images for sm_75 only, and this GPU is sm_90");
}

TEST_F(Runner, NoGpuUnderASanitizerThatRunsTheTestsIsNoGpu) {
  options_.sanitizer = stand_in("runs-them",
                                "while [ $# -gt 0 ]; do case \"$1\" in /*) break ;; esac; "
                                "shift; done\n"
                                "\"$@\"\n"
                                "echo '========= ERROR SUMMARY: 1 error'\n"
                                "exit 97\n")
                           .string();
  setenv("FAKE_NO_GPU", "1", 1);
  EXPECT_EQ(sanitize_naive(manifest_, options_).status, course::LessonStatus::no_gpu);
}

TEST_F(Runner, ASanitizerThatCannotRunHereIsUnavailableWithItsError) {
  options_.sanitizer = stand_in("no-device", kSanitizerWithoutDevice).string();
  const course::LessonReport r = sanitize_naive(manifest_, options_);  // the GPU itself is fine
  EXPECT_EQ(r.status, course::LessonStatus::unavailable) << r.message;
  EXPECT_NE(r.message.find("no-device did not run the hidden tests"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("Error: stand-in: no CUDA-capable device"), std::string::npos)
      << r.message;
  course::Report whole;
  whole.lessons.push_back(r);
  EXPECT_EQ(whole.exit_code(), course::kExitNoGpu);
}

TEST_F(Runner, ASanitizerThatCannotStartSaysWhatItPrinted) {
  options_.sanitizer = stand_in("broken",
                                "echo 'broken: error while loading shared libraries: "
                                "libsanitizer-public.so: cannot open shared object file'\n"
                                "exit 127\n")
                           .string();
  const course::LessonReport r = sanitize_naive(manifest_, options_);
  EXPECT_EQ(r.status, course::LessonStatus::unavailable);
  EXPECT_NE(r.message.find("exited with code 127): broken: error while loading shared libraries"),
            std::string::npos)
      << r.message;
}

TEST_F(Runner, ASanitizerThatCannotRunHereLeavesTheGradesVerdicts) {
  options_.sanitizer = stand_in("no-device", kSanitizerWithoutDevice).string();
  const auto r = grade("naive/T.pass:tiled/T.pass:tiled_padded/T.pass");
  EXPECT_EQ(r.status, course::LessonStatus::pass);
  EXPECT_EQ(r.memcheck, course::LessonMemcheck::failed);
  EXPECT_NE(r.memcheck_note.find("Error: stand-in: no CUDA-capable device"), std::string::npos)
      << r.memcheck_note;
}

// A kernel that hangs on every shape cost --kernel-timeout per test, each in a fresh process
// (117 s for one step on the GPU). A step's hangs share one budget; every test still gets a line.
TEST_F(Runner, AStepsHungKernelsShareOneTimeBudget) {
  options_.kernel_timeout = 0.2;
  options_.hang_budget = 0.5;
  std::string tests;
  for (int i = 1; i <= 8; ++i) tests += "naive/T.stall_" + std::to_string(i) + ":";
  const auto r = grade(tests + "tiled/T.pass:tiled_padded/T.pass");
  const auto& naive = step(r, "naive");
  ASSERT_EQ(naive.problems.size(), 8u);
  int hung = 0, not_run = 0;
  for (const auto& p : naive.problems) {
    if (p.status == course::TestStatus::failed) ++hung;
    if (p.status != course::TestStatus::not_run) continue;
    ++not_run;
    EXPECT_NE(p.failures.at(0).find("not run: this step's kernels already hung for 0.6 s (the "
                                    "limit is 0.5 s per step); fix the hang first"),
              std::string::npos)
        << p.failures.at(0);
  }
  EXPECT_EQ(hung, 3);  // 0.2 + 0.2 s is under the budget, 0.6 s is not
  EXPECT_EQ(not_run, 5);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::pass);  // the other steps still run
  course::Report whole;
  whole.lessons.push_back(r);
  const std::string text = course::to_text(whole, course::TextOptions{});
  EXPECT_NE(text.find("... and 1 more (--verbose shows all), then 5 [not_run]: not run: this "
                      "step's kernels already hung"),
            std::string::npos)
      << text;
}

TEST_F(Runner, AHungTestTheGraderKillsSpendsTheBudgetToo) {
  options_.hang_budget = 1;  // the test timeout is 1.5 s
  const auto r = grade("naive/T.hang_a:naive/T.hang_b:naive/T.pass_c:tiled/T.pass");
  const auto& naive = step(r, "naive");
  ASSERT_EQ(naive.problems.size(), 3u);
  EXPECT_EQ(naive.problems[0].status, course::TestStatus::timed_out);
  EXPECT_EQ(naive.problems[1].status, course::TestStatus::not_run);
  EXPECT_EQ(naive.problems[2].status, course::TestStatus::not_run);
  EXPECT_EQ(step(r, "tiled").status, course::StepStatus::pass);
}

// Real linker output (grader/tests/data/link_errors/, made with nvcc 13): an empty stub used to
// show only "collect2: error: ld returned 1 exit status".
std::string link_log(const std::string& name) {
  std::ifstream in(COURSE_SOURCE_DIR "/grader/tests/data/link_errors/" + name);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_FALSE(text.str().empty()) << name;
  return text.str();
}

TEST(CompilerErrors, AnEmptyStubNamesTheMissingKernels) {
  // cmake --build (Ninja) of grade_07_transpose with every kernel deleted from the stub.
  const std::string kept = driver::compiler_errors(link_log("ninja_empty_stub.txt"));
  EXPECT_EQ(kept.rfind("the link failed: ", 0), 0u) << kept;
  EXPECT_NE(kept.find("did you delete or rename it?"), std::string::npos) << kept;
  for (const char* kernel : {"naive", "tiled", "tiled_padded", "tiled_cp_async", "padded_32x32"})
    EXPECT_NE(kept.find(fmt::format("\n  transpose::transpose_{}(float const*, float*, int, int)\n",
                                    kernel)),
              std::string::npos)
        << kernel << " is not named in:\n"
        << kept;
  EXPECT_NE(kept.find("undefined reference to `transpose::transpose_tiled(float const*, float*, "
                      "int, int)'"),
            std::string::npos)
      << kept;
  EXPECT_NE(kept.find("in function `transpose::launch_transpose("), std::string::npos) << kept;
  EXPECT_NE(kept.find("collect2: error: ld returned 1 exit status"), std::string::npos);
}

TEST(CompilerErrors, LdUndefinedKernelAndHostFunction) {
  for (const char* log : {"ld_undefined_kernel_and_host.txt", "ld_undefined_rdc.txt"}) {
    const std::string kept = driver::compiler_errors(link_log(log));
    EXPECT_NE(kept.find("No definition of:\n  transpose_tiled(float const*, float*, int, int)\n"
                        "  host_helper(int)\n"),
              std::string::npos)
        << log << ":\n"
        << kept;
    EXPECT_NE(kept.find("undefined reference to `host_helper(int)'"), std::string::npos) << log;
  }
}

TEST(CompilerErrors, NvlinkUndefinedDeviceFunctionIsDemangled) {
  const std::string kept =
      driver::compiler_errors(link_log("nvlink_undefined_device_function.txt"));
  EXPECT_NE(kept.find("No definition of:\n  load_tile(float const*, int)\n"), std::string::npos)
      << kept;
  EXPECT_NE(kept.find("nvlink error   : Undefined reference to '_Z9load_tilePKfi' in 'dev.o'"),
            std::string::npos)
      << kept;
}

// A second .cu file in the folder (a backup copy of the kernel file) defines everything twice:
// the report says so and names the functions, whichever linker said it.
TEST(CompilerErrors, ABackupCopyInTheFolderIsNamedAsDefinedTwice) {
  for (const char* log : {"ld_multiple_definition.txt", "lld_duplicate_symbol.txt"}) {
    const std::string kept = driver::compiler_errors(link_log(log));
    EXPECT_EQ(kept.rfind("the link failed: two files of the lesson define the same function", 0),
              0u)
        << log << ":\n"
        << kept;
    EXPECT_NE(
        kept.find("Defined twice:\n  vector_add::add(float const*, float const*, float*, "
                  "int)\n  vector_add::vector_add(float const*, float const*, float*, int)\n"),
        std::string::npos)
        << log << ":\n"
        << kept;
    EXPECT_EQ(kept.find("No definition of"), std::string::npos) << log;
  }
}

// A lesson built with device images (cmake/CourseDeviceImage.cmake) is not linked after an edit:
// its link check says the same in the linker's words, and the report is the same.
TEST(CompilerErrors, TheDeviceImageCheckReadsLikeTheLinker) {
  const std::string missing = link_log("device_image_missing_kernel.txt");
  const std::string kept = driver::compiler_errors(missing);
  EXPECT_EQ(kept.rfind("the link failed: ", 0), 0u) << kept;
  EXPECT_NE(kept.find("No definition of:\n  transpose::transpose_tiled(float const*, float*, int, "
                      "int)\n"),
            std::string::npos)
      << kept;
  EXPECT_NE(driver::build_failure_message("grade_07_transpose", missing).find("did not link"),
            std::string::npos);
  const std::string twice = driver::compiler_errors(link_log("device_image_defined_twice.txt"));
  EXPECT_EQ(twice.rfind("the link failed: two files of the lesson define the same function", 0), 0u)
      << twice;
  EXPECT_NE(twice.find("Defined twice:\n  transpose::transpose_naive(float const*, float*, int, "
                       "int)\n"),
            std::string::npos)
      << twice;
}

// A lesson whose stub folder is empty (deleted by the student) builds into a target that fails
// with cmake/CourseLesson.cmake's message: the report names it as a missing file, not as code that
// did not compile; a link error is named as such.
TEST(CompilerErrors, TheFirstLineSaysMissingFileLinkOrCompile) {
  EXPECT_NE(driver::build_failure_message(
                "grade_07_transpose",
                "[1/1] cd /b && cmake -E echo \"course configure error: exercises/07_transpose/ "
                "has no .cu file: restore it with `grader reset 07_transpose`\"\n")
                .find("a file the lesson needs is missing"),
            std::string::npos);
  EXPECT_NE(driver::build_failure_message("grade_07_transpose", link_log("ninja_empty_stub.txt"))
                .find("did not link"),
            std::string::npos);
  EXPECT_NE(driver::build_failure_message("grade_07_transpose",
                                          "transpose.cu(20): error: identifier \"tile\"\n")
                .find("did not compile"),
            std::string::npos);
  // A target the build folder does not have, with gmake's words and Ninja's: nothing was
  // compiled, and the message says so (build_target() has configured the folder again by then).
  for (const char* said :
       {"gmake: *** No rule to make target 'grade_99_example__solution'.  Stop.\n",
        "ninja: error: unknown target 'grade_99_example__solution'\n"}) {
    const std::string m = driver::build_failure_message("grade_99_example__solution", said);
    EXPECT_NE(m.find("is not a target of this build folder"), std::string::npos) << m;
    EXPECT_EQ(m.find("did not compile"), std::string::npos) << m;
  }
}

// A build folder that is itself broken (its CMakeFiles/ deleted, its cache gone or made for a
// folder the checkout was moved from) is the grader's problem, not the student's: the message says
// so and names the preset that configures that folder again; a compile error is not taken for one
// (what CMake and gmake printed in those cases on 2 cores, fourteenth session).
TEST(CompilerErrors, ABrokenBuildFolderIsNotTheStudentsCode) {
  const std::vector<std::string> broken = {
      "CMake Error: Error processing file: /c/build/CMakeFiles/VerifyGlobs.cmake\n"
      "gmake: *** [Makefile:2429: cmake_check_build_system] Error 1\n",
      "Error: could not load cache\n",
      // CMake 4.x on the H200 for the same folder without a cache (fifteenth session):
      "Error: not a CMake build directory (missing CMakeCache.txt)\n",
      "CMake Error: The current CMakeCache.txt directory /new/build/CMakeCache.txt is different "
      "than the directory /old/build where CMakeCache.txt was created.\n",
      "ninja: error: rebuilding 'build.ninja': subcommand failed\n",
      // Ninja, CMakeFiles/ or build.ninja deleted (a review, fourteenth session):
      "ninja: error: build.ninja:35: loading 'CMakeFiles/rules.ninja': No such file or directory\n",
      "ninja: error: loading 'build.ninja': No such file or directory\n"};
  for (const std::string& said : broken) {
    EXPECT_TRUE(driver::build_folder_broken(said)) << said;
    const std::string m =
        driver::build_failure_message("grade_07_transpose", said, "/c/build-solutions", true);
    EXPECT_NE(m.find("the build folder /c/build-solutions is damaged"), std::string::npos) << m;
    EXPECT_NE(m.find("your code is not at fault"), std::string::npos) << m;
    EXPECT_NE(m.find("cmake --preset solutions"), std::string::npos) << m;
    EXPECT_EQ(m.find("did not compile"), std::string::npos) << m;
  }
  EXPECT_NE(driver::build_failure_message("grade_07_transpose", broken[1], "/c/build", true)
                .find("cmake --preset exercises"),
            std::string::npos);
  // The student's compile error, and a lesson file missing, stay theirs: also when CMake's words
  // are in the same output, once the student's file was compiled.
  const std::string compile_error =
      "[ 50%] Building CUDA object CMakeFiles/k.dir/exercises/07_transpose/transpose.cu.o\n"
      "transpose.cu(20): error: identifier \"tile\" is undefined\n";
  EXPECT_FALSE(driver::build_folder_broken(compile_error));
  EXPECT_FALSE(driver::build_folder_broken(compile_error + broken[0]));
  EXPECT_NE(driver::build_failure_message("grade_07_transpose", compile_error, "/c/build", false)
                .find("did not compile"),
            std::string::npos);
  EXPECT_FALSE(driver::build_folder_broken(
      "course configure error: exercises/07_transpose/ has no .cu file\n"
      "gmake: *** [Makefile:2429: cmake_check_build_system] Error 1\n"));
}

// The grade's own path, with the real CMake: a build folder without its cache (here: an empty
// folder) cannot be configured again, and build_target() says the folder is broken, which the
// report turns into exit code 5, not the student's compile error.
TEST(CompilerErrors, BuildTargetSaysAFolderWithoutACacheIsBroken) {
  const std::filesystem::path dir = test_fixture::fresh_test_dir("broken-build");
  driver::GradeOptions o;
  o.binary_dir = dir.string();
  o.status_messages = false;
  std::string log;
  bool broken = false;
  EXPECT_FALSE(driver::build_target(o, "grade_07_transpose", log, nullptr, &broken));
  EXPECT_TRUE(broken) << log;
  std::filesystem::remove_all(dir);
}

TEST(CompilerErrors, CompileErrorsGetNoLinkExplanation) {
  const std::string kept = driver::compiler_errors(
      "transpose.cu(20): error: identifier \"tile\" is undefined\n1 error detected\n");
  EXPECT_EQ(kept.find("the link failed"), std::string::npos) << kept;
}

// A lesson's first build takes a while on a small machine; the grader says so on one line, with
// the architectures this build tree compiles for (issue 19).
TEST(FirstBuildNote, OneLineWithTheLessonArchitecturesAndDuration) {
  const std::string note = driver::first_build_note("07_transpose", "");
  EXPECT_EQ(note.find('\n'), std::string::npos) << note;
  EXPECT_NE(note.find("building 07_transpose's hidden tests for sm_"), std::string::npos) << note;
  EXPECT_NE(note.find("first build of this lesson: up to about "), std::string::npos) << note;
  EXPECT_NE(driver::first_build_note("07_transpose", "solution").find("with the solution kernels"),
            std::string::npos);
}

}  // namespace

namespace {

TEST(SanitizerLog, CountsEveryToolsSummary) {
  const std::string log =
      "========= COMPUTE-SANITIZER\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at transpose_naive(const float *, float *, int, int)+0x90\n"
      "========= ERROR SUMMARY: 2 errors\n"
      "========= Error: Race reported between Write access at transpose_tiled_padded+0x40\n"
      "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n"
      "========= ERROR SUMMARY: 0 errors\n";
  const driver::SanitizerFindings f = driver::sanitizer_findings(log);
  EXPECT_EQ(f.errors, 3);
  ASSERT_GE(f.first_lines.size(), 2u);
  EXPECT_EQ(f.first_lines[0], "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(driver::sanitizer_findings(
                "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n")
                .errors,
            0);
}

}  // namespace
