// The speed record end to end without a GPU: written by the functions the harness writes it with
// (course/speed_record.hpp, course/clocks.hpp), sent as the harness's "end" line, parsed by the
// grader and rendered by --json. The expected texts are pinned: the record is the harness's wire
// format and the "speed" object is part of the --json format (format_version 1).
#include <gtest/gtest.h>

#include "course/clocks.hpp"
#include "course/protocol.hpp"
#include "course/report.hpp"
#include "course/speed_record.hpp"

namespace {

namespace key = course::speed_key;

// What a timing loop of 120 pairs measured, re-measured after its first 30 straddled the gate.
course::TimingOutcome remeasured_outcome() {
  course::TimingOutcome t;
  t.gbps = 3512.25;
  t.ceiling_gbps = 3601.5;
  t.ratio.median = 0.9752;
  t.ratio.q1 = 0.97;
  t.ratio.q3 = 0.981;
  t.pairs = 120;
  t.stopped_early = false;
  t.seconds = 0.75;
  t.first_straddle_pairs = 30;
  t.peak_gbps = 4915.2;
  return t;
}

course::GateDecision passed() {
  course::GateDecision d;
  d.verdict = course::Verdict::pass;
  return d;
}

// Every key a speed test of a step with a gate and FLOPs writes, in the order harness::run_speed
// writes them, with the same writers.
nlohmann::json harness_record() {
  nlohmann::json p = nlohmann::json::object();
  p["seed"] = 123456.0;
  p.update(course::speed_test_properties("copy_tiled", "copy", 0.85));
  p[key::kFirstCheckSeconds] = 0.0123;
  p[key::kShape] = "8192x8192 floats";
  p[key::kBytes] = 536870912.0;
  // SM clock (MHz), memory clock (MHz), temperature (C), event reasons: sw_power_cap | sw_thermal.
  const course::ClockSample before{1980, 3201, 41, 0x24}, after{1965, 3201, 47, 0};
  p.update(course::clock_properties(before, after));
  p.update(course::timing_properties(remeasured_outcome(), passed()));
  p[key::kMemcpyGbps] = 4150.0;
  p[key::kCheckedLaunches] = 3.0;
  p[key::kCheckSeconds] = 0.01;
  p[key::kFlops] = 137438953472.0;
  return p;
}

// The "speed" object --json shows for harness_record(), as the grader printed it before the
// record had one owner (the same bytes).
constexpr char kExpectedSpeedJson[] =
    R"({"bytes":536870912.0,"ceiling_gbps":3601.5,"ceiling_kernel":"copy_tiled",)"
    R"("ceiling_tflops":921.984,"close_call":false,"flops":137438953472.0,)"
    R"("fraction_of_ceiling":0.9752,"fraction_q1":0.97,"fraction_q3":0.981,"gate":0.85,)"
    R"("gbps":3512.25,"margin":0.12519999999999998,"mem_clock_mhz_after":3201,)"
    R"("mem_clock_mhz_before":3201,"memcpy_gbps":4150.0,"pairs":120,)"
    R"("pairs_at_first_decision":30,"peak_gbps":4915.2,"remeasured":true,)"
    R"("shape":"8192x8192 floats","sm_clock_mhz_after":1965,"sm_clock_mhz_before":1980,)"
    R"("temperature_c_after":47,"temperature_c_before":41,"tflops":899.136,)"
    R"("throttle_reasons":["sw_power_cap","sw_thermal"],"verdict":"pass"})";

// The harness's writers give the record it wrote key by key before they existed: the same keys,
// the same JSON types (counts as floating-point numbers), the same values.
TEST(SpeedRecord, WritersKeepTheWireFormat) {
  EXPECT_EQ(course::speed_test_properties("copy_tiled", "copy", 0.85).dump(),
            R"({"ceiling_kernel":"copy_tiled","ceiling_kind":"copy","gate":0.85,"kind":"speed"})");
  EXPECT_EQ(
      course::speed_test_properties("cublas_sgemm", "library", std::nullopt).dump(),
      R"({"ceiling_kernel":"cublas_sgemm","ceiling_kind":"library","gate":null,"kind":"speed"})");
  EXPECT_EQ(course::timing_properties(remeasured_outcome(), passed()).dump(),
            R"({"ceiling_gbps":3601.5,"close_call":false,"gbps":3512.25,"pairs":120.0,)"
            R"("pairs_at_first_decision":30.0,"peak_gbps":4915.2,"ratio":0.9752,"ratio_q1":0.97,)"
            R"("ratio_q3":0.981,"remeasured":true,"stopped_early":false,"timing_seconds":0.75,)"
            R"("verdict":"pass"})");
  // Not re-measured: "remeasured": false and no pairs_at_first_decision.
  course::TimingOutcome settled = remeasured_outcome();
  settled.first_straddle_pairs = 0;
  settled.stopped_early = true;
  course::GateDecision failed;
  failed.verdict = course::Verdict::fail;
  failed.close_call = true;
  const nlohmann::json p = course::timing_properties(settled, failed);
  EXPECT_FALSE(p.contains(key::kPairsAtFirstDecision));
  EXPECT_EQ(p[key::kRemeasured], false);
  EXPECT_EQ(p[key::kStoppedEarly], true);
  EXPECT_EQ(p[key::kCloseCall], true);
  EXPECT_EQ(p[key::kVerdict], "fail");
}

// Written by the harness's writers, sent as its "end" line, parsed by the grader, and shown in
// --json under the report's names (fraction_of_ceiling for ratio, ...).
TEST(SpeedRecord, RoundTripsThroughTheParserAndJson) {
  const nlohmann::json end = {{"event", "end"},
                              {"test", "tiled/TransposeSpeed.meets_gate/timed"},
                              {"status", "passed"},
                              {"ms", 812.0},
                              {"failures", nlohmann::json::array()},
                              {"properties", harness_record()}};
  const auto log = course::protocol::parse_log(
      end.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  ASSERT_EQ(log.finished.size(), 1u);
  const auto speed = course::SpeedFigures::from_properties(log.finished[0].properties);
  ASSERT_TRUE(speed.has_value());
  EXPECT_EQ(course::speed_report_json(*speed).dump(), kExpectedSpeedJson);

  course::StepReport step;
  step.name = "tiled";
  step.status = course::StepStatus::pass;
  step.speed = speed;
  course::LessonReport lesson;
  lesson.id = "07_transpose";
  lesson.steps = {step};
  course::Report report;
  report.lessons = {lesson};
  EXPECT_EQ(course::to_json(report)["lessons"][0]["steps"][0]["speed"].dump(), kExpectedSpeedJson);
}

}  // namespace
