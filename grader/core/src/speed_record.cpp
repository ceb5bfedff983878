#include "course/speed_record.hpp"

#include <utility>

namespace course {

using nlohmann::json;
namespace key = speed_key;

namespace {
// The optional clock figures: the same key in the test's properties and in the JSON report.
constexpr std::pair<const char*, std::optional<int> SpeedFigures::*> kClockFigures[] = {
    {key::kSmClockMhzBefore, &SpeedFigures::sm_clock_mhz_before},
    {key::kSmClockMhzAfter, &SpeedFigures::sm_clock_mhz_after},
    {key::kMemClockMhzBefore, &SpeedFigures::mem_clock_mhz_before},
    {key::kMemClockMhzAfter, &SpeedFigures::mem_clock_mhz_after},
    {key::kTemperatureCBefore, &SpeedFigures::temperature_c_before},
    {key::kTemperatureCAfter, &SpeedFigures::temperature_c_after}};

// The wall-clock figures of a host-call step, each optional.
constexpr std::pair<const char*, std::optional<double> SpeedFigures::*> kHostCallFigures[] = {
    {key::kCallMs, &SpeedFigures::call_ms},
    {key::kCeilingMs, &SpeedFigures::ceiling_call_ms},
    {key::kLeftRunningMs, &SpeedFigures::left_running_ms},
    {key::kLeftRunningMsMax, &SpeedFigures::left_running_ms_max}};

// 10^12 FLOP/s of a kernel that moved `bytes` at `gbps` while doing `flops`: flops / time, with
// time = bytes / (gbps x 10^9).
double tflops_at(double flops, double bytes, double gbps) {
  return flops > 0 && bytes > 0 && gbps > 0 ? flops * gbps * 1e9 / bytes / 1e12 : 0;
}
}  // namespace

json speed_test_properties(const std::string& ceiling_kernel, const std::string& ceiling_kind,
                           std::optional<double> gate) {
  return {{key::kKind, key::kSpeedKind},
          {key::kCeilingKernel, ceiling_kernel},
          {key::kCeilingKind, ceiling_kind},
          {key::kGate, gate ? json(*gate) : json(nullptr)}};
}

json timing_properties(const TimingOutcome& t, const GateDecision& decision) {
  // Counts are written as floating-point numbers, as every number of the record.
  json p = {{key::kGbps, t.gbps},
            {key::kCeilingGbps, t.ceiling_gbps},
            {key::kRatio, t.ratio.median},
            {key::kRatioQ1, t.ratio.q1},
            {key::kRatioQ3, t.ratio.q3},
            {key::kPairs, static_cast<double>(t.pairs)},
            {key::kStoppedEarly, t.stopped_early},
            {key::kTimingSeconds, t.seconds},
            {key::kVerdict, to_string(decision.verdict)},
            {key::kCloseCall, decision.close_call},
            {key::kRemeasured, t.first_straddle_pairs > 0},
            {key::kPeakGbps, t.peak_gbps}};
  if (t.first_straddle_pairs > 0)
    p[key::kPairsAtFirstDecision] = static_cast<double>(t.first_straddle_pairs);
  return p;
}

std::optional<SpeedFigures> SpeedFigures::from_properties(const json& p) {
  // A speed test that stopped before timing (wrong output) has no figures to show.
  if (!p.is_object() || p.value(key::kKind, "") != key::kSpeedKind || !p.contains(key::kGbps))
    return std::nullopt;
  SpeedFigures s;
  s.shape = p.value(key::kShape, "");
  s.bytes = p.value(key::kBytes, 0.0);
  s.gbps = p.value(key::kGbps, 0.0);
  s.ceiling_gbps = p.value(key::kCeilingGbps, 0.0);
  s.ratio = p.value(key::kRatio, 0.0);
  s.ratio_q1 = p.value(key::kRatioQ1, 0.0);
  s.ratio_q3 = p.value(key::kRatioQ3, 0.0);
  if (p.contains(key::kGate) && p[key::kGate].is_number()) s.gate = p[key::kGate].get<double>();
  s.pairs = p.value(key::kPairs, 0);
  s.verdict = parse_status<Verdict>(p.value(key::kVerdict, ""));
  s.close_call = p.value(key::kCloseCall, false);
  // Optional (older records lack it): not re-measured unless it says so.
  s.remeasured = p.contains(key::kRemeasured) && p[key::kRemeasured].is_boolean() &&
                 p[key::kRemeasured].get<bool>();
  if (s.remeasured && p.contains(key::kPairsAtFirstDecision)) {
    const json& first = p[key::kPairsAtFirstDecision];
    if (first.is_number() && first.get<double>() > 0 && first.get<double>() < 1e9)
      s.pairs_at_first_decision = static_cast<int>(first.get<double>());
  }
  s.memcpy_gbps = p.value(key::kMemcpyGbps, 0.0);
  s.peak_gbps = p.value(key::kPeakGbps, 0.0);
  s.ceiling_kernel = p.value(key::kCeilingKernel, "");
  if (p.contains(key::kFlops) && p[key::kFlops].is_number() && p[key::kFlops].get<double>() > 0)
    s.flops = p[key::kFlops].get<double>();
  // Clock figures (course/clocks.hpp): optional, so a missing or malformed one stays absent.
  for (const auto& [name, member] : kClockFigures) {
    if (!p.contains(name) || !p[name].is_number()) continue;
    const double v = p[name].get<double>();
    if (v >= 0 && v < 1e6) s.*member = static_cast<int>(v);
  }
  for (const auto& [name, member] : kHostCallFigures)
    if (p.contains(name) && p[name].is_number() && p[name].get<double>() >= 0)
      s.*member = p[name].get<double>();
  if (p.contains(key::kThrottleReasons) && p[key::kThrottleReasons].is_array()) {
    std::vector<std::string> reasons;
    for (const json& r : p[key::kThrottleReasons])
      if (r.is_string()) reasons.push_back(r.get<std::string>());
    s.throttle_reasons = reasons;
  }
  return s;
}

double SpeedFigures::tflops() const {
  return tflops_at(flops, bytes, gbps);
}

double SpeedFigures::ceiling_tflops() const {
  return tflops_at(flops, bytes, ceiling_gbps);
}

bool SpeedFigures::has_clocks() const {
  return sm_clock_mhz_before || sm_clock_mhz_after || mem_clock_mhz_before || mem_clock_mhz_after ||
         temperature_c_before || temperature_c_after || throttle_reasons;
}

json speed_report_json(const SpeedFigures& s) {
  json j = {{key::kShape, s.shape},
            {key::kBytes, s.bytes},
            {key::kGbps, s.gbps},
            {key::kCeilingGbps, s.ceiling_gbps},
            {key::kCeilingKernel, s.ceiling_kernel},
            {"fraction_of_ceiling", s.ratio},  // kRatio
            {"fraction_q1", s.ratio_q1},       // kRatioQ1
            {"fraction_q3", s.ratio_q3},       // kRatioQ3
            {key::kGate, s.gate ? json(*s.gate) : json(nullptr)},
            {"margin", s.gate ? json(s.ratio - *s.gate) : json(nullptr)},
            {key::kPairs, s.pairs},
            {key::kVerdict, s.verdict ? to_string(*s.verdict) : ""},  // "": not timed
            {key::kCloseCall, s.close_call},
            {key::kRemeasured, s.remeasured},
            {key::kPairsAtFirstDecision, s.remeasured && s.pairs_at_first_decision > 0
                                             ? json(s.pairs_at_first_decision)
                                             : json(nullptr)},
            {key::kMemcpyGbps, s.memcpy_gbps},
            {key::kPeakGbps, s.peak_gbps}};
  // Optional: present only when read (format_version 1 only ever gains optional fields).
  for (const auto& [name, member] : kClockFigures)
    if (const std::optional<int>& value = s.*member) j[name] = *value;
  if (s.throttle_reasons) j[key::kThrottleReasons] = *s.throttle_reasons;
  for (const auto& [name, member] : kHostCallFigures)
    if (const std::optional<double>& value = s.*member) j[name] = *value;
  if (s.flops > 0) {  // optional, as the clocks: only for a step that declares its FLOPs
    j[key::kFlops] = s.flops;
    j["tflops"] = s.tflops();
    j["ceiling_tflops"] = s.ceiling_tflops();
  }
  return j;
}

}  // namespace course
