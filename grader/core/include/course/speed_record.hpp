/// @file speed_record.hpp
/// @brief The speed record, in one place: the properties a hidden speed test writes about its
/// timing (the harness, over the JSON-lines protocol of course/protocol.hpp), what the grader
/// reads back from them (SpeedFigures) and how `--json` names them (speed_report_json()).
///
/// The keys are declared once, in course::speed_key. The harness writes them through
/// speed_test_properties(), timing_properties(), clock_properties() (course/clocks.hpp) and
/// harness::record(speed_key::..., value) for the single figures; SpeedFigures::from_properties()
/// reads them. GPU-free: the grader and its CPU tests use it, and a CPU test round-trips a record
/// from these writers through the reader and the `--json` writer.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/stats.hpp"

namespace course {

/// The keys of a speed test's record (its test's "properties" in the protocol). Measurements and
/// counts are written as JSON floating-point numbers; the clock figures as integers.
namespace speed_key {
/// "speed" (kSpeedKind) for a speed test; the reader ignores a record without it.
inline constexpr char kKind[] = "kind";
/// The value of kKind that marks a speed test.
inline constexpr char kSpeedKind[] = "speed";
/// What was timed, with its unit ("8192x8192 floats"); written by harness::Case::describe for
/// every test, read for speed tests.
inline constexpr char kShape[] = "shape";
/// Bytes the task must read plus write, per launch.
inline constexpr char kBytes[] = "bytes";
/// Floating-point operations per launch; written only by a step that declares them.
inline constexpr char kFlops[] = "flops";
/// The student's kernel, from its median time, 10^9 B/s; its absence means "not timed".
inline constexpr char kGbps[] = "gbps";
/// The ceiling kernel over the same pairs, from its median time, 10^9 B/s.
inline constexpr char kCeilingGbps[] = "ceiling_gbps";
/// Median over the timed pairs of ceiling time / student time (a fraction of the ceiling).
inline constexpr char kRatio[] = "ratio";
/// First quartile of the per-pair ratios.
inline constexpr char kRatioQ1[] = "ratio_q1";
/// Third quartile of the per-pair ratios.
inline constexpr char kRatioQ3[] = "ratio_q3";
/// The step's gate (fraction of the ceiling), or JSON null for a step without one.
inline constexpr char kGate[] = "gate";
/// Interleaved (ceiling, student) pairs timed.
inline constexpr char kPairs[] = "pairs";
/// Whether the loop stopped early because the verdict was certain.
inline constexpr char kStoppedEarly[] = "stopped_early";
/// Wall time of the timing loop, seconds.
inline constexpr char kTimingSeconds[] = "timing_seconds";
/// The gate's verdict: course::to_string(Verdict).
inline constexpr char kVerdict[] = "verdict";
/// Whether the ratio's interquartile range straddled the gate at the end.
inline constexpr char kCloseCall[] = "close_call";
/// Whether the loop went on because the spread straddled the gate.
inline constexpr char kRemeasured[] = "remeasured";
/// Pairs when the spread was first found straddling the gate; written only when re-measured.
inline constexpr char kPairsAtFirstDecision[] = "pairs_at_first_decision";
/// 2 x memory clock x bus width, 10^9 B/s, for context.
inline constexpr char kPeakGbps[] = "peak_gbps";
/// cudaMemcpy device-to-device of the same bytes, 10^9 B/s, for context; written when the case
/// has an input and an output to copy between.
inline constexpr char kMemcpyGbps[] = "memcpy_gbps";
/// The step's ceiling kernel as the manifest names it ("copy_tiled").
inline constexpr char kCeilingKernel[] = "ceiling_kernel";
/// The step's ceiling kind as the manifest names it (copy, read, library).
inline constexpr char kCeilingKind[] = "ceiling_kind";
/// Seconds the untimed first check on the timing shape took.
inline constexpr char kFirstCheckSeconds[] = "first_check_seconds";
/// Timed launches whose outputs were checked after the loop.
inline constexpr char kCheckedLaunches[] = "checked_launches";
/// Seconds those checks took.
inline constexpr char kCheckSeconds[] = "check_seconds";
/// SM clock right before the timing loop, MHz (course::clock_properties()).
inline constexpr char kSmClockMhzBefore[] = "sm_clock_mhz_before";
/// SM clock right after the timing loop, MHz.
inline constexpr char kSmClockMhzAfter[] = "sm_clock_mhz_after";
/// Memory clock right before the timing loop, MHz.
inline constexpr char kMemClockMhzBefore[] = "mem_clock_mhz_before";
/// Memory clock right after the timing loop, MHz.
inline constexpr char kMemClockMhzAfter[] = "mem_clock_mhz_after";
/// GPU temperature right before the timing loop, degrees Celsius.
inline constexpr char kTemperatureCBefore[] = "temperature_c_before";
/// GPU temperature right after the timing loop, degrees Celsius.
inline constexpr char kTemperatureCAfter[] = "temperature_c_after";
/// Thermal and power throttle reasons of either reading: an array of strings.
inline constexpr char kThrottleReasons[] = "throttle_reasons";
// Host-call speed tests (harness/host_timing.hpp): the report shows them under the step and
// reads the lesson's figures as wall-clock times of whole calls.
/// median time the device kept running after the student's call returned, ms
inline constexpr char kLeftRunningMs[] = "left_running_ms";
/// the longest such time over the timed calls, ms
inline constexpr char kLeftRunningMsMax[] = "left_running_ms_max";
/// median wall time of the student's call, the device synchronized before and after, ms
inline constexpr char kCallMs[] = "call_ms";
/// median wall time of the ceiling's call, measured the same way, ms
inline constexpr char kCeilingMs[] = "ceiling_ms";
}  // namespace speed_key

/// The properties a speed test writes before it times anything: kKind ("speed"), kCeilingKernel,
/// kCeilingKind and kGate (null when `gate` is empty).
/// @param ceiling_kernel the step's ceiling kernel, as the manifest names it
/// @param ceiling_kind the step's ceiling kind, as the manifest names it
/// @param gate the step's gate, a fraction of the ceiling (0..1), if it has one
nlohmann::json speed_test_properties(const std::string& ceiling_kernel,
                                     const std::string& ceiling_kind, std::optional<double> gate);

/// What a speed test's timing loop measured, for timing_properties().
struct TimingOutcome {
  double gbps = 0;                       ///< student kernel, from its median time, 10^9 B/s
  double ceiling_gbps = 0;               ///< ceiling kernel, from its median time, 10^9 B/s
  Summary ratio;                         ///< the per-pair ratios (ceiling time / student time)
  std::size_t pairs = 0;                 ///< pairs timed
  bool stopped_early = false;            ///< stopped in SamplingState::certain (not
                                         ///< median_certain, settled or a cap)
  double seconds = 0;                    ///< wall time of the loop, seconds
  std::size_t first_straddle_pairs = 0;  ///< course::first_straddle(); 0: never re-measured
  double peak_gbps = 0;                  ///< the device's datasheet peak, 10^9 B/s
};

/// The properties a speed test writes after its timing loop: kGbps, kCeilingGbps, kRatio,
/// kRatioQ1, kRatioQ3, kPairs, kStoppedEarly, kTimingSeconds, kVerdict, kCloseCall, kRemeasured,
/// kPairsAtFirstDecision (only when re-measured) and kPeakGbps.
/// @param t what the loop measured
/// @param decision the gate's decision on `t.ratio` (course::decide_gate())
nlohmann::json timing_properties(const TimingOutcome& t, const GateDecision& decision);

/// A speed measurement against the lesson's copy ceiling (from the speed test's properties).
struct SpeedFigures {
  std::string shape;        ///< what was timed, with its unit: "8192x8192 floats"
  double bytes = 0;         ///< bytes the task must read + write
  double gbps = 0;          ///< student kernel, median, 10^9 B/s
  double ceiling_gbps = 0;  ///< ceiling kernel, median over the same pairs
  double ratio = 0;         ///< median over pairs of student/ceiling
  /// First quartile of the per-pair ratios (ratio_q3: the third).
  double ratio_q1 = 0, ratio_q3 = 0;
  /** @var ratio_q3
      Third quartile of the per-pair ratios. */
  std::optional<double> gate;  ///< required ratio, if the step has a gate
  int pairs = 0;               ///< interleaved (ceiling, student) pairs timed
  /// The gate's verdict (impossible: above course::kImpossibleRatio); none when the test
  /// recorded none (it was not timed).
  std::optional<Verdict> verdict;
  bool close_call = false;  ///< the ratio's interquartile range straddled the gate
  /// The timing loop went on because the ratio's interquartile range straddled the gate at a
  /// check after the minimum pairs (course::first_straddle()); close_call says whether it still
  /// did.
  bool remeasured = false;
  /// Pairs when the interquartile range was first found straddling the gate; 0 unless remeasured.
  int pairs_at_first_decision = 0;
  double memcpy_gbps = 0;      ///< cudaMemcpy device-to-device, same bytes, for context
  double peak_gbps = 0;        ///< 2 x memory clock x bus width, for context
  std::string ceiling_kernel;  ///< name of the ceiling kernel, e.g. "copy_tiled"
  /// Floating-point operations the task must do (2 M N K for a matrix product), for a step that
  /// declares them (harness::Case::flops); 0 for a step judged by its bytes alone.
  double flops = 0;
  /// The student kernel's FLOP rate, 10^12 FLOP/s: flops / kernel time, the time being bytes /
  /// (gbps x 10^9); 0 when the step declares no flops.
  double tflops() const;
  /// The ceiling's FLOP rate over the same pairs, 10^12 FLOP/s (as tflops()).
  double ceiling_tflops() const;

  // The GPU as found right before and right after the timing loop (course/clocks.hpp), each
  // absent when it could not be read (no NVML, no driver, unsupported query).
  /// SM clock before the timing loop, MHz (sm_clock_mhz_after: right after it).
  std::optional<int> sm_clock_mhz_before, sm_clock_mhz_after;
  /** @var sm_clock_mhz_after
      SM clock right after the timing loop, MHz. */
  /// Memory clock before the timing loop, MHz (mem_clock_mhz_after: right after it).
  std::optional<int> mem_clock_mhz_before, mem_clock_mhz_after;
  /** @var mem_clock_mhz_after
      Memory clock right after the timing loop, MHz. */
  /// GPU temperature before the timing loop, degrees Celsius (temperature_c_after: right after).
  std::optional<int> temperature_c_before, temperature_c_after;
  /** @var temperature_c_after
      GPU temperature right after the timing loop, degrees Celsius. */
  /// Thermal and power throttle reasons seen in either reading (course::throttle_reasons());
  /// empty: none; absent: not known.
  std::optional<std::vector<std::string>> throttle_reasons;

  // A host-call step (lesson 14: harness/host_timing.hpp) timed the student's whole call on the
  // wall clock; absent for a kernel timed with events.
  /// Median wall time of the student's call, ms (ceiling_call_ms: the ceiling's call).
  std::optional<double> call_ms, ceiling_call_ms;
  /** @var ceiling_call_ms
      Median wall time of the ceiling's call, ms, over the same pairs. */
  /// How long the device still ran after the student's call returned, ms: the median over the
  /// timed calls (left_running_ms_max: the longest). Above zero, the call returned before its
  /// work was done.
  std::optional<double> left_running_ms, left_running_ms_max;
  /** @var left_running_ms_max
      The longest time the device still ran after one of the student's calls returned, ms. */

  /// True when at least one clock, temperature or throttle figure is known.
  bool has_clocks() const;

  /// Reads the properties a speed test recorded (harness::run_speed_check).
  /// @param p a test record's properties
  /// @return the figures, or no value when `p` is not from a speed test (no "kind": "speed").
  ///   Missing numbers read as 0; missing clock figures (or ones of the wrong type) stay absent;
  ///   a missing or malformed "remeasured" reads as false, and pairs_at_first_decision is read
  ///   only when it is true.
  static std::optional<SpeedFigures> from_properties(const nlohmann::json& p);
};

/// The "speed" object of a step in the `--json` report: the one place where the record's names
/// become the report's. Renamed: kRatio, kRatioQ1, kRatioQ3 become "fraction_of_ceiling",
/// "fraction_q1", "fraction_q3" (what the ratio is a fraction of, as the manifest's gates say).
/// Derived: "margin" (fraction_of_ceiling - gate, null without a gate); with flops, "tflops" and
/// "ceiling_tflops". Left out: kKind, kCeilingKind, kStoppedEarly and the seconds and counts of
/// the harness's own work (kTimingSeconds, kFirstCheckSeconds, kCheckedLaunches, kCheckSeconds).
/// pairs_at_first_decision is null unless re-measured; clock figures, throttle reasons and flops
/// appear only when known. Every other key keeps its record name.
nlohmann::json speed_report_json(const SpeedFigures& speed);

}  // namespace course
