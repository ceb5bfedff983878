// harness/ncu.hpp without a GPU: stand-ins for Nsight Compute (shell scripts named ncu) show the
// outcomes a profiler step acts on: counters not permitted (the step skips with the reason), the
// profiled cases failing, metrics read back, no ncu at all; and Nsight Compute started ahead, its
// program waiting for the go (StartedNcu, wait_for_go).
#include "harness/ncu.hpp"

#include "course/text_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/file.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using harness::NcuResult;

class Ncu : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("harness-ncu-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // An executable `ncu` in the test's folder running `body` (sh).
  std::string fake_ncu(const std::string& body) {
    const fs::path p = dir_ / "ncu";
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  fs::path dir_;
};

TEST_F(Ncu, CountersNotPermittedIsItsOwnOutcome) {
  const std::string ncu = fake_ncu(
      "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
      "Performance Counters on the target device 0.'\nexit 1");
  const NcuResult r = harness::run_ncu(ncu, "k", {"true"}, (dir_ / "out").string());
  EXPECT_EQ(r.outcome, NcuResult::Outcome::not_permitted);
  EXPECT_NE(r.output.find("ERR_NVGPUCTRPERM"), std::string::npos);
  EXPECT_NE(harness::counters_not_permitted_reason().find("ERR_NVGPUCTRPERM"), std::string::npos);
}

TEST_F(Ncu, FailedCasesAreNotAProfilerProblem) {
  const std::string ncu = fake_ncu("echo '[  FAILED  ] registers/Correct.n_1000003'\nexit 1");
  EXPECT_EQ(harness::run_ncu(ncu, "k", {"true"}, (dir_ / "out").string()).outcome,
            NcuResult::Outcome::program_failed);
}

// A stand-in body that writes `lines` (sh words) to the file after --log-file, as ncu does with
// its own output, and runs nothing.
std::string writes_log_file(const std::string& lines) {
  return "while [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && log=$2; shift; done\n"
         "[ -n \"$log\" ] || { echo 'no --log-file'; exit 9; }\n"
         "printf '%s\\n' " +
         lines + " > \"$log\"";
}

TEST_F(Ncu, ReadsTheMetricsFromItsLogFile) {
  // One ncu process: the CSV comes from --log-file, after ncu's ==PROF== lines.
  const std::string ncu = fake_ncu(writes_log_file(
      "'==PROF== Connected to process 1' "
      "'\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"' "
      "'\"0\",\"ns::mix_channels(const float *, float *, const float *, long long)\","
      "\"launch__registers_per_thread\",\"register/thread\",\"40\"' "
      "'\"0\",\"ns::mix_channels(const float *, float *, const float *, long long)\","
      "\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"71.5\"'"));
  const NcuResult r = harness::run_ncu(ncu, "mix_channels", {"true"}, (dir_ / "out").string());
  ASSERT_EQ(r.outcome, NcuResult::Outcome::metrics) << r.output;
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].kernel, "mix_channels");
  EXPECT_DOUBLE_EQ(r.kernels[0].registers, 40);
  EXPECT_DOUBLE_EQ(r.kernels[0].occupancy_pct, 71.5);
}

TEST_F(Ncu, CountersNotPermittedInItsLogFile) {
  // With --log-file, ncu's ==ERROR== line is in the file, not on the pipe.
  const std::string ncu = fake_ncu(writes_log_file(
      "'==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
      "Performance Counters on the target device 0.'"));
  EXPECT_EQ(harness::run_ncu(ncu, "k", {"true"}, (dir_ / "out").string()).outcome,
            NcuResult::Outcome::not_permitted);
}

TEST_F(Ncu, NoCsvIsAnError) {
  const std::string ncu = fake_ncu(writes_log_file("'==PROF== Disconnected from process 1'"));
  const NcuResult r = harness::run_ncu(ncu, "k", {"true"}, (dir_ / "out").string());
  EXPECT_EQ(r.outcome, NcuResult::Outcome::error);
  EXPECT_NE(r.output.find("no Nsight Compute CSV header"), std::string::npos) << r.output;
}

TEST_F(Ncu, NoNcuIsNotFound) {
  EXPECT_EQ(harness::run_ncu("", "k", {"true"}, (dir_ / "out").string()).outcome,
            NcuResult::Outcome::not_found);
}

TEST_F(Ncu, FindsTheStandInFirstOnPath) {
  const std::string ncu = fake_ncu("exit 0");
  const char* old = std::getenv("PATH");
  const std::string saved = old ? old : "";
  ::unsetenv("GRADER_NCU");
  ::setenv("PATH", (dir_.string() + ":" + saved).c_str(), 1);
  const std::string found = course::profile::find_ncu();
  ::setenv("PATH", saved.c_str(), 1);
  EXPECT_EQ(found, ncu);
}

// A stand-in for ncu and the program under it: records "waiting" in `marks`, waits for the go file
// as a hidden-test binary's --wait-for-go does (flock(1) for wait_for_go()), records what it read
// ("ran" after go, "stopped" otherwise), then writes one kernel's CSV to --log-file.
std::string waits_for_go(const fs::path& marks) {
  return "while [ $# -gt 0 ]; do case $1 in --log-file) log=$2;; --wait-for-go) go=$2;; esac; "
         "shift; done\n"
         "echo waiting >> '" +
         marks.string() +
         "'\n"
         "if [ \"$(flock -s \"$go\" cat \"$go\")\" = go ]; then echo ran >> '" +
         marks.string() + "'; else echo stopped >> '" + marks.string() +
         "'; exit 1; fi\n"
         "printf '%s\\n' '\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"' "
         "'\"0\",\"mix_channels(float "
         "*)\",\"launch__registers_per_thread\",\"register/thread\",\"40\"' "
         "> \"$log\"";
}

// What `file` holds ("" while it is missing).
std::string text_of(const fs::path& file) {
  return course::read_text(file.string()).value_or("");
}

// Waits up to 10 s for `file` to hold `text`.
bool eventually_holds(const fs::path& file, const std::string& text) {
  for (int i = 0; i < 1000; ++i) {
    if (text_of(file).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST_F(Ncu, StartedAheadTheProgramWaitsForGo) {
  const fs::path marks = dir_ / "marks";
  harness::StartedNcu ncu(fake_ncu(waits_for_go(marks)), "mix_channels", {"true"},
                          (dir_ / "out").string());
  ASSERT_TRUE(eventually_holds(marks, "waiting"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_EQ(text_of(marks), "waiting\n") << "the program went on before finish() said go";
  const NcuResult r = ncu.finish();
  ASSERT_EQ(r.outcome, NcuResult::Outcome::metrics) << r.output;
  EXPECT_EQ(r.kernels.at(0).kernel, "mix_channels");
  EXPECT_TRUE(eventually_holds(marks, "ran"));
}

TEST_F(Ncu, NeverToldGoTheProgramDoesNotRun) {
  const fs::path marks = dir_ / "marks";
  {
    // This stand-in ignores SIGTERM, so that it lives to read the go file.
    harness::StartedNcu ncu(fake_ncu("trap '' TERM\n" + waits_for_go(marks)), "mix_channels",
                            {"true"}, (dir_ / "out").string());
    ASSERT_TRUE(eventually_holds(marks, "waiting"));
  }  // the test that would have said go did not run
  EXPECT_EQ(text_of(marks), "waiting\nstopped\n") << "the program must see no go, and stop";
  EXPECT_FALSE(fs::exists(dir_ / "out")) << "its folder is removed";
}

TEST_F(Ncu, AnNcuThatCannotStartSaysSo) {
  harness::StartedNcu ncu((dir_ / "no-such-ncu").string(), "k", {"true"}, (dir_ / "out").string());
  const NcuResult r = ncu.finish();
  EXPECT_EQ(r.outcome, NcuResult::Outcome::error);
  EXPECT_NE(r.output.find("could not start"), std::string::npos) << r.output;
}

TEST_F(Ncu, WaitForGoReadsWhatTheStarterWrote) {
  // Both sides in one process: flock(2) locks belong to open file descriptions, so two opens of
  // one file exclude each other as two processes do.
  for (const bool say_go : {true, false}) {
    const std::string file = (dir_ / (say_go ? "go-yes" : "go-no")).string();
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_EX), 0);
    std::future<bool> went =
        std::async(std::launch::async, [&] { return harness::wait_for_go(file); });
    EXPECT_EQ(went.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
        << "wait_for_go returned while the file was locked";
    const bool wrote = !say_go || ::write(fd, "go\n", 3) == 3;
    ::close(fd);  // before any assertion: the waiting thread must be let go
    ASSERT_TRUE(wrote);
    EXPECT_EQ(went.get(), say_go);
  }
  EXPECT_FALSE(harness::wait_for_go((dir_ / "missing").string()));
}

}  // namespace

namespace {

// Whether the counters are surely readable decides whether lesson 15's profiled test may fail at
// once when its cases failed (elsewhere Nsight Compute is asked, and the step may skip).
TEST(CountersPermitted, OpenToEveryUserOrToThisProcess) {
  const std::string open = "ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 0\n";
  const std::string admin_only = "ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\n";
  const std::string no_caps = "Name:\tgrade\nCapEff:\t0000000000000000\n";
  const std::string root = "Name:\tgrade\nCapEff:\t000001ffffffffff\n";
  const std::string sys_admin_only = "CapEff:\t0000000000200000\n";  // bit 21
  const std::string perfmon_only = "CapEff:\t0000004000000000\n";    // bit 38: not sure
  EXPECT_TRUE(harness::counters_surely_permitted(open, no_caps));
  EXPECT_FALSE(harness::counters_surely_permitted(admin_only, no_caps));
  EXPECT_TRUE(harness::counters_surely_permitted(admin_only, root));
  EXPECT_TRUE(harness::counters_surely_permitted(admin_only, sys_admin_only));
  EXPECT_FALSE(harness::counters_surely_permitted(admin_only, perfmon_only));
  // Files that could not be read, or say nothing: not sure.
  EXPECT_FALSE(harness::counters_surely_permitted("", ""));
  EXPECT_FALSE(harness::counters_surely_permitted("RmProfilingAdminOnly: \n", no_caps));
  EXPECT_TRUE(harness::counters_surely_permitted("", root));
}

}  // namespace
