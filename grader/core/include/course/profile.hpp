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
  std::string kernel;                     ///< function name, without namespace or parameters
  double duration_ns = -1;                ///< gpu__time_duration.sum
  double memory_pct = -1;                 ///< Memory Throughput (Speed of Light)
  double compute_pct = -1;                ///< Compute (SM) Throughput (Speed of Light)
  double ld_sectors = -1;                 ///< 32-byte sectors of global loads (L1TEX)
  double ld_requests = -1;                ///< global load requests (one per warp instruction)
  double st_sectors = -1;                 ///< 32-byte sectors of global stores (L1TEX)
  double st_requests = -1;                ///< global store requests
  double bank_conflicts_ld = -1;          ///< shared-memory bank conflicts of loads
  double bank_conflicts_st = -1;          ///< shared-memory bank conflicts of stores
  double shared_ld_instructions = -1;     ///< executed shared-memory load instructions
  double occupancy_pct = -1;              ///< achieved occupancy: active warps / maximum per SM
  double theoretical_occupancy_pct = -1;  ///< the launch's theoretical occupancy (its limits)
  double registers = -1;                  ///< registers per thread of the launch

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

/// Sectors per request above which a global access counts as strided: more than twice the 4 of
/// a warp's coalesced float access.
constexpr double kStridedSectorsPerRequest = 8;

/// True when the kernel's global loads are strided (ld_sectors_per_request() above
/// kStridedSectorsPerRequest).
bool loads_strided(const KernelMetrics& m);
/// True when the kernel's global stores are strided.
bool stores_strided(const KernelMetrics& m);
/// Shared-memory bank conflicts of loads per shared load instruction (the extra wavefronts each
/// one costs); 0 when the kernel has no shared loads.
double conflicts_per_shared_load(const KernelMetrics& m);

/// The second half of a verdict line: the evidence (metrics that show the limiter) and the next
/// experiment, in the lab's words: "...; EVIDENCE; the next experiment would be NEXT."
struct Advice {
  std::string evidence;  ///< e.g. "its global stores take 32.0 sectors per request (...)"
  std::string next;      ///< e.g. "to stage a tile in shared memory so that ..."
};

/// Advice that holds for any lesson: strided global accesses, then shared-memory bank
/// conflicts, then the limiter (memory: nothing left at this geometry; latency: more bytes in
/// flight; compute: fewer instructions per byte). Lessons refine it (course/extensions.hpp).
Advice generic_advice(const KernelMetrics& m);

/// The verdict line in the lab's format, with two metrics as evidence and a next experiment:
/// the advice `lesson` registered for these metrics (course/extensions.hpp), else
/// generic_advice().
std::string verdict_line(const KernelMetrics& m, const std::string& lesson);

/// A Markdown table of the metrics, one row per kernel.
std::string metrics_table(const std::vector<KernelMetrics>& kernels);

}  // namespace course::profile
