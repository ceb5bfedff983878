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
/// (one ncu process, no report kept) and reads the metrics from that CSV. Clocks are left as
/// found (never locked).
/// @param ncu     from course::profile::find_ncu() ("" gives not_found)
/// @param kernels regex over kernel names, e.g. "mix_channels|segment_scan"
/// @param program the program and its arguments (this test binary with a --gtest_filter)
/// @param dir     a writable directory for the report
NcuResult run_ncu(const std::string& ncu, const std::string& kernels,
                  const std::vector<std::string>& program, const std::string& dir);

/// The reason a step gives when it skips for ERR_NVGPUCTRPERM: what happened and how an
/// administrator allows it, in one line.
std::string counters_not_permitted_reason();

/// This process's executable (/proc/self/exe), to profile the test binary itself; "" if unknown.
std::string self_executable();

}  // namespace harness
