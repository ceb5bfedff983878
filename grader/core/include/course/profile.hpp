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

/// Nsight Compute's executable, for `grader profile` and for a hidden test that profiles itself
/// (lesson 15): $GRADER_NCU when set (a stand-in, as the CLI tests use), else the first `ncu` on
/// PATH (what the user chose), else the one beside the nvcc the course builds with, else
/// /usr/local/cuda/bin/ncu, else the newest standalone install
/// /opt/nvidia/nsight-compute/VERSION/ncu; "" when there is none.
std::string find_ncu();

/// The arguments, after the ncu executable and before the profiled program, with which the course
/// always runs Nsight Compute: clocks as found (`--clock-control none`: never locked or changed),
/// the kernels matching `kernels_regex` only, metric_names(), the report exported to `report`
/// (ncu adds ".ncu-rep"), overwriting an old one.
std::vector<std::string> ncu_profile_args(const std::string& kernels_regex,
                                          const std::string& report);

/// The arguments, after the ncu executable, that read `report` (as given to ncu_profile_args)
/// back as CSV, the form parse_ncu_csv() reads.
std::vector<std::string> ncu_import_args(const std::string& report);

/// The arguments, after the ncu executable and before the profiled program, of a run that keeps
/// no report: the same choices as ncu_profile_args(), but the metrics are printed as CSV (the
/// details page, what ncu_import_args() reads back) into `csv_file` (`--log-file`: ncu's own
/// lines go there too, the program's output does not). One ncu process instead of two: on our
/// H200 a second process importing the report cost 0.6 s of lesson 15's profile step
/// (docs/measured/H200.md, thirteenth session).
std::vector<std::string> ncu_csv_args(const std::string& kernels_regex,
                                      const std::string& csv_file);

/// One kernel's figures. Percentages are 0..100 of the hardware's sustained peak; counts are
/// per launch. A value ncu did not report stays negative.
struct KernelMetrics {
  std::string kernel;       ///< function name, without namespace or parameters
  double duration_ns = -1;  ///< gpu__time_duration.sum
  double memory_pct = -1;   ///< Memory Throughput (Speed of Light)
  double compute_pct = -1;  ///< Compute (SM) Throughput (Speed of Light)
  double ld_sectors = -1;   ///< 32-byte sectors of global loads (L1TEX)
  double ld_requests = -1;  ///< global load requests (one per warp instruction)
  double st_sectors = -1;   ///< 32-byte sectors of global stores (L1TEX)
  double st_requests = -1;  ///< global store requests
  /// smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct: the share (%) of each
  /// fetched sector's bytes that the loads asked for. Unlike sectors per request it does not
  /// depend on the access width: on the H200 a float copy (4 sectors per request) and a float4
  /// copy (16) both use 100%, a float read from every eighth element 12.5%
  /// (docs/measured/H200.md, eleventh session).
  double ld_bytes_used_pct = -1;
  double st_bytes_used_pct = -1;       ///< as ld_bytes_used_pct, for global stores (..._op_st.pct)
  double bank_conflicts_ld = -1;       ///< shared-memory bank conflicts of loads
  double bank_conflicts_st = -1;       ///< shared-memory bank conflicts of stores
  double shared_ld_instructions = -1;  ///< executed shared-memory load instructions
  double occupancy_pct = -1;           ///< achieved occupancy: active warps / maximum per SM
  double theoretical_occupancy_pct = -1;  ///< the launch's theoretical occupancy (its limits)
  double registers = -1;                  ///< registers per thread of the launch

  // The roofline's inputs, as Nsight Compute's "GPU Speed Of Light Roofline Chart" section
  // defines them (its section file, SpeedOfLight_RooflineChart.section): FP32 work counted from
  // executed SASS instructions, the roofs from the hardware's sustained peaks per cycle times the
  // clock during the kernel.
  double fadd = -1;        ///< smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
  double fmul = -1;        ///< smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
  double ffma = -1;        ///< smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
  double dram_bytes = -1;  ///< dram__bytes.sum: bytes read and written in DRAM
  double peak_ffma_per_cycle =
      -1;  ///< sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained
  double sm_cycles_per_second = -1;       ///< sm__cycles_elapsed.avg.per_second: the SM clock (Hz)
  double peak_dram_bytes_per_cycle = -1;  ///< dram__bytes.sum.peak_sustained
  double dram_cycles_per_second = -1;     ///< dram__cycles_elapsed.avg.per_second (Hz)

  double ld_sectors_per_request() const;  ///< 4 is ideal for 4-byte elements; 32 is one per lane
  double st_sectors_per_request() const;  ///< as ld_sectors_per_request(), for stores
  /// FP32 operations the kernel executed: fadd + fmul + 2 ffma (a fused multiply-add is two);
  /// -1 when ncu reported none of the three.
  double fp32_flops() const;
  /// DRAM's peak in B/s: peak_dram_bytes_per_cycle x dram_cycles_per_second; -1 when either is
  /// missing.
  double peak_dram_bytes_per_second() const;
};

/// Where a kernel sits on the FP32 roofline (Williams, Waterman and Patterson, "Roofline", CACM
/// 52(4), 2009): achieved FLOP/s against the FP32 peak and against what its DRAM traffic allows.
/// Rates are in FLOP/s and B/s (10^9 B/s = 1 GB/s); intensities in FLOP per byte of DRAM traffic.
struct Roofline {
  double flops_per_second;            ///< fp32_flops() / duration
  double peak_flops_per_second;       ///< 2 x peak_ffma_per_cycle x sm_cycles_per_second
  double peak_dram_bytes_per_second;  ///< peak_dram_bytes_per_cycle x dram_cycles_per_second
  double intensity;                   ///< fp32_flops() / dram_bytes
  /// The ridge point, peak FLOP/s / peak B/s: kernels of higher intensity can be compute-bound.
  double ridge() const { return peak_flops_per_second / peak_dram_bytes_per_second; }
  /// The roof at this intensity: min(peak FLOP/s, intensity x peak B/s).
  double roof() const;
};

/// The kernel's roofline figures, or nothing when a metric they need is missing or it executed
/// no FP32 operation (a copy kernel has no place on an FP32 roofline).
bool roofline(const KernelMetrics& m, Roofline& out);

/// One line for a kernel with FP32 work: "sgemm_warp_tiles: 34.2 TFLOP/s of FP32, 58% of the
/// FP32 peak (59.3 TFLOP/s at the clock it ran at); 341 FLOP per byte of DRAM traffic, right of
/// the ridge point (12.3 FLOP/B): compute-bound on the roofline, 58% of its roof."; "" when
/// roofline() gives nothing.
std::string roofline_line(const KernelMetrics& m);

/// Parses `ncu --import REPORT --csv --page details` output (one row per kernel and metric).
/// Kernels appear in launch order; a kernel launched twice appears twice.
/// @throws std::runtime_error when the text has no recognizable header row.
std::vector<KernelMetrics> parse_ncu_csv(const std::string& csv);

/// "memory", "compute" or "latency": memory when Memory Throughput >= 60% of peak and above
/// Compute, compute when Compute >= 60% and above Memory, latency when neither reaches 60%
/// (both low means the limiter is latency, not a roof: Lab 02 pitfall 3).
std::string limiter(const KernelMetrics& m);

/// The share of each moved sector's bytes at or under which a global access counts as strided:
/// at most half of what the memory system moves is used (a float4 per lane with lanes 32 bytes
/// apart uses 50%).
constexpr double kStridedBytesUsedPct = 50;

/// The share of the kernel's global sectors an access must carry to be judged at all: a store of
/// one lane per block (a reduction's partial sums) uses 12.5% of its sector but moves next to
/// nothing.
constexpr double kStridedShareOfSectors = 0.1;

/// Without the bytes-used metric (an older report): sectors per request above which a global
/// access counts as strided, more than twice the 4 of a warp's coalesced float access. It
/// misjudges wider accesses (a coalesced float4 load takes 16), hence the metric above first.
constexpr double kStridedSectorsPerRequest = 8;

/// True when the kernel's global loads are strided: ld_bytes_used_pct at most
/// kStridedBytesUsedPct on loads that carry kStridedShareOfSectors of the global sectors, or
/// without the metric ld_sectors_per_request() above kStridedSectorsPerRequest.
bool loads_strided(const KernelMetrics& m);
/// True when the kernel's global stores are strided.
bool stores_strided(const KernelMetrics& m);
/// Shared-memory bank conflicts of loads per shared load instruction (the extra wavefronts each
/// one costs); 0 when the kernel has no shared loads.
double conflicts_per_shared_load(const KernelMetrics& m);

/// DRAM bytes per second over DRAM's peak (dram_bytes / duration against
/// peak_dram_bytes_per_cycle x dram_cycles_per_second); -1 when a metric it needs is missing.
double dram_fraction_of_peak(const KernelMetrics& m);

/// Points by which DRAM's share of its peak must lie under Memory Throughput (the busiest memory
/// unit's share) for a memory-bound kernel to count as busy on chip (L1 and shared memory, or L2),
/// where reusing data helps and fusing does not. On the H200 (docs/measured/H200.md, eleventh
/// session) 13's sgemm_shared_tiles had Memory Throughput 86% with DRAM near 11% of its peak (on
/// chip), 15's segment_scan 64-76% with DRAM 67-79% (DRAM itself).
constexpr double kOnChipGapPoints = 20;

/// The second half of a verdict line: the evidence (metrics that show the limiter) and the next
/// experiment, in the lab's words: "...; EVIDENCE; the next experiment would be NEXT."
struct Advice {
  std::string evidence;  ///< e.g. "its global stores take 32.0 sectors per request (...)"
  std::string next;      ///< e.g. "to stage a tile in shared memory so that ..."
};

/// Advice that holds for any lesson: strided global accesses, then shared-memory bank
/// conflicts, then the limiter (memory: nothing left at this geometry when DRAM runs near its
/// peak, else reuse on chip (kOnChipGapPoints); latency: more bytes in flight; compute: fewer
/// instructions per byte). Lessons refine it (course/extensions.hpp).
Advice generic_advice(const KernelMetrics& m);

/// The verdict line in the lab's format, with two metrics as evidence and a next experiment:
/// the advice `lesson` registered for these metrics (course/extensions.hpp), else
/// generic_advice().
std::string verdict_line(const KernelMetrics& m, const std::string& lesson);

/// A Markdown table of the metrics, one row per kernel.
std::string metrics_table(const std::vector<KernelMetrics>& kernels);

}  // namespace course::profile
