/// @file ncu.hpp
/// @brief Nsight Compute from inside a hidden test: runs `ncu` on this same test binary, limited
/// to a few correctness cases and the student's kernels, and returns their metrics
/// (course/profile.hpp), or why there are none. Where the GPU's counters are not permitted to
/// this user (ERR_NVGPUCTRPERM: shared machines, Colab) the answer says so, and the step that asked
/// skips with that reason instead of failing (lesson 15's profile step).
#pragma once

#include <string>
#include <vector>

#include "course/profile.hpp"

namespace harness {

/// What a run of Nsight Compute gave.
struct NcuResult {
  /// metrics: `kernels` holds them. not_permitted: ERR_NVGPUCTRPERM. not_found: no ncu.
  /// program_failed: the profiled cases failed (their kernels are wrong: `output` says how).
  /// no_kernels: ncu profiled no kernel matching the filter. error: anything else (`output`).
  enum class Outcome { metrics, not_permitted, not_found, program_failed, no_kernels, error };
  Outcome outcome = Outcome::error;                     ///< what happened
  std::vector<course::profile::KernelMetrics> kernels;  ///< in launch order
  std::string output;  ///< what ncu and the profiled program printed (the last 4,000 characters)
};

/// Runs `ncu` with course::profile::ncu_csv_args(KERNELS, DIR/metrics.csv) on PROGRAM ARGS...
/// (one ncu process, no report kept) and reads the metrics from that CSV: StartedNcu, finished at
/// once. Clocks are left as found (never locked).
/// @param ncu     from course::profile::find_ncu() ("" gives not_found); a path, or a name looked
/// up on PATH
/// @param kernels regex over kernel names, e.g. "mix_channels|segment_scan"
/// @param program the program and its arguments (this test binary with a --gtest_filter); it must
///                accept `--wait-for-go FILE` (every hidden-test binary does: wait_for_go())
/// @param dir     a writable directory for the CSV and the program's output, removed afterwards
NcuResult run_ncu(const std::string& ncu, const std::string& kernels,
                  const std::vector<std::string>& program, const std::string& dir);

/// Nsight Compute started ahead of the test that reads it (lesson 15's profile step), so that ncu's
/// own start and the profiled program's run while the grade's other tests do (lesson 15's full
/// grade once built, 4.13 -> 3.41-3.48 s on our H200: docs/measured/H200.md, seventeenth session).
/// The program is started with `--wait-for-go DIR/go` appended: it creates its CUDA context (ncu
/// connects to it then), launches nothing, and waits in wait_for_go() until finish() says go: call
/// that only once this process has the GPU alone (the profiled test's wait_for_quiet_gpu()).
/// Destroyed without finish() (the test did not run), it never says go: the program exits without
/// launching a kernel, and ncu is stopped (SIGTERM, SIGKILL after about 5 s). A grade killed
/// outright, or ended by a lost CUDA context, leaves `dir` behind (its processes go with its
/// process group, as the grader kills it).
class StartedNcu {
 public:
  /// Starts `ncu` as run_ncu() does (same parameters); errors surface in finish().
  StartedNcu(const std::string& ncu, const std::string& kernels,
             const std::vector<std::string>& program, const std::string& dir);
  ~StartedNcu();
  StartedNcu(const StartedNcu&) = delete;
  StartedNcu& operator=(const StartedNcu&) = delete;

  /// Lets the program go, waits for ncu to end and reads what it gave. Call once.
  NcuResult finish();

 private:
  std::string csv_file() const;
  std::string output_file() const;
  std::string dir_;
  std::string launch_error_;  // why ncu did not start ("" if it did, or if ncu is "")
  int go_fd_ = -1;            // the go file, locked exclusively until finish()
  int pid_ = -1;              // ncu's process
};

/// The profiled program's side of StartedNcu (`--wait-for-go FILE` of every hidden-test binary):
/// blocks until the starting process releases FILE's lock, then whether it wrote go (false: that
/// process ended or gave up without letting it run; the program then exits, its context created
/// but nothing launched). Also false if FILE cannot be opened.
bool wait_for_go(const std::string& go_file);

/// Whether this process may surely read the GPU's performance counters, from the driver's
/// parameters (/proc/driver/nvidia/params: "RmProfilingAdminOnly: 0" opens them to every user) and
/// this process's status (/proc/self/status: CAP_SYS_ADMIN, bit 21 of "CapEff", opens them to the
/// process), as NVIDIA's ERR_NVGPUCTRPERM page describes. false means "not sure" (the files cannot
/// be read, or other capabilities such as CAP_PERFMON on newer drivers might do): the caller then
/// asks Nsight Compute, which knows.
bool counters_surely_permitted(const std::string& nvidia_params, const std::string& proc_status);
/// counters_surely_permitted() of this machine and process.
bool counters_surely_permitted();

/// The reason a step gives when it skips for ERR_NVGPUCTRPERM: what happened and how an
/// administrator allows it, in one line.
std::string counters_not_permitted_reason();

/// This process's executable (/proc/self/exe), to profile the test binary itself; "" if unknown.
std::string self_executable();

}  // namespace harness
