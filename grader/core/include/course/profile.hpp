/// @file profile.hpp
/// @brief Nsight Compute metrics of a lesson's kernels and the lab's verdict line:
/// "<kernel> is <memory/compute/latency>-bound because <two metrics>; the next experiment would
/// be <X>." (Lab 02, PROFILE.md §4). Parsing and wording are here, without a GPU, so they are
/// tested on CPU; `grader profile` runs ncu and feeds its CSV in.
#pragma once

#include <string>
#include <vector>

namespace course::profile {

/// The metrics `grader profile` asks ncu for (`--metrics`, comma-separated), by their
/// Nsight Compute names (see WARMUP.md chapter 11).
const std::vector<std::string>& metric_names();

/// One kernel's figures. Percentages are 0..100 of the hardware's sustained peak; counts are
/// per launch. A value ncu did not report stays negative.
struct KernelMetrics {
  std::string kernel;                  ///< function name, without namespace or parameters
  double duration_ns = -1;             ///< gpu__time_duration.sum
  double memory_pct = -1;              ///< Memory Throughput (Speed of Light)
  double compute_pct = -1;             ///< Compute (SM) Throughput (Speed of Light)
  double ld_sectors = -1;              ///< 32-byte sectors of global loads (L1TEX)
  double ld_requests = -1;             ///< global load requests (one per warp instruction)
  double st_sectors = -1;              ///< 32-byte sectors of global stores (L1TEX)
  double st_requests = -1;             ///< global store requests
  double bank_conflicts_ld = -1;       ///< shared-memory bank conflicts of loads
  double bank_conflicts_st = -1;       ///< shared-memory bank conflicts of stores
  double shared_ld_instructions = -1;  ///< executed shared-memory load instructions
  double occupancy_pct = -1;           ///< achieved occupancy: active warps / maximum per SM

  double ld_sectors_per_request() const;  ///< 4 is ideal for 4-byte elements; 32 is one per lane
  double st_sectors_per_request() const;  ///< as ld_sectors_per_request(), for stores
};

/// Parses `ncu --import REPORT --csv --page details` output (one row per kernel and metric).
/// Kernels appear in launch order; a kernel launched twice appears twice.
/// @throws std::runtime_error when the text has no recognizable header row.
std::vector<KernelMetrics> parse_ncu_csv(const std::string& csv);

/// "memory", "compute" or "latency": memory when Memory Throughput >= 60% of peak and above
/// Compute, compute when Compute >= 60% and above Memory, latency when neither reaches 60%
/// (both low means the limiter is latency, not a roof: Lab 02 pitfall 3).
std::string limiter(const KernelMetrics& m);

/// The verdict line in the lab's format, with two metrics as evidence and a next experiment.
std::string verdict_line(const KernelMetrics& m);

/// A Markdown table of the metrics, one row per kernel.
std::string metrics_table(const std::vector<KernelMetrics>& kernels);

}  // namespace course::profile
