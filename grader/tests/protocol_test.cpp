// The child-to-grader report file, including what a crash leaves behind.
#include <gtest/gtest.h>

#include "course/clocks.hpp"
#include "course/protocol.hpp"
#include "course/report.hpp"

namespace {

using course::protocol::parse_log;

TEST(Protocol, ParsesDeviceTestsAndFatal) {
  const auto log = parse_log(
      "{\"event\":\"device\",\"name\":\"G\",\"cc\":\"9.0\"}\n"
      "{\"event\":\"start\",\"test\":\"naive/A.b/1x1\"}\n"
      "{\"event\":\"end\",\"test\":\"naive/A.b/1x1\",\"status\":\"failed\",\"failures\":[\"m\"],"
      "\"properties\":{\"shape\":\"1x1\"},\"ms\":3}\n"
      "{\"event\":\"fatal\",\"test\":\"naive/A.b/1x1\",\"reason\":\"illegal address\"}\n");
  EXPECT_EQ(log.device.value("name", ""), "G");
  ASSERT_EQ(log.finished.size(), 1u);
  EXPECT_EQ(log.finished[0].status, course::TestStatus::failed);
  EXPECT_EQ(log.finished[0].failures.at(0), "m");
  EXPECT_EQ(log.finished[0].properties.value("shape", ""), "1x1");
  EXPECT_TRUE(log.running.empty());
  EXPECT_EQ(log.fatal_reason, "illegal address");
  EXPECT_EQ(log.fatal_test, "naive/A.b/1x1");
}

TEST(Protocol, TornLastLineAndRunningTest) {
  const auto log = parse_log(
      "{\"event\":\"start\",\"test\":\"tiled/A.b/2x2\"}\n"
      "{\"event\":\"end\",\"test\":\"tiled/A.b/2x2\",\"status\":\"passed\"}\n"
      "{\"event\":\"start\",\"test\":\"tiled/A.b/3x3\"}\n"
      "{\"event\":\"end\",\"test\":\"til");
  ASSERT_EQ(log.finished.size(), 1u);
  EXPECT_EQ(log.running, "tiled/A.b/3x3");
}

TEST(Protocol, CountsWaitingForTheGpu) {
  const auto log = course::protocol::parse_log(
      "{\"event\":\"start\",\"test\":\"host/Correct.no_leak\"}\n"
      "{\"event\":\"waiting_for_quiet_gpu\"}\n{\"event\":\"waiting_for_quiet_gpu\"}\n");
  EXPECT_EQ(log.waiting, 2u);
  EXPECT_EQ(log.running, "host/Correct.no_leak");
}

// The "exit" record says the process is done; a torn one, or none, says nothing yet.
TEST(Protocol, ExitRecordOnlyOnceWhole) {
  const std::string tests =
      "{\"event\":\"start\",\"test\":\"tiled/A.b\"}\n"
      "{\"event\":\"end\",\"test\":\"tiled/A.b\",\"status\":\"failed\"}\n";
  EXPECT_FALSE(parse_log(tests).exit_code.has_value());
  EXPECT_FALSE(parse_log(tests + "{\"event\":\"exit\",\"co").exit_code.has_value());
  const auto log = parse_log(tests + "{\"event\":\"exit\",\"code\":1}\n");
  ASSERT_TRUE(log.exit_code.has_value());
  EXPECT_EQ(*log.exit_code, 1);
  EXPECT_TRUE(log.running.empty());
}

TEST(Protocol, NoGpuRecord) {
  const auto log = parse_log("{\"event\":\"no_gpu\",\"reason\":\"no CUDA-capable device\"}\n");
  EXPECT_TRUE(log.no_gpu);
  EXPECT_EQ(log.no_gpu_reason, "no CUDA-capable device");
}

// A speed test's "end" record with clock figures, written as harness::ReportFile writes it
// (compact JSON, one line), survives the trip to SpeedFigures and the --json report.
TEST(Protocol, ClockFiguresRoundTrip) {
  course::ClockSample before, after;
  before.sm_mhz = 1980;
  after.sm_mhz = 1410;
  before.mem_mhz = after.mem_mhz = 2619;
  before.temperature_c = 71;
  after.temperature_c = 88;
  after.event_reasons = 0x20 | 0x40 | 0x1;  // sw and hw thermal slowdown, and idle
  nlohmann::json properties = {{"kind", "speed"},        {"shape", "8192x8192"}, {"gbps", 1500.0},
                               {"ceiling_gbps", 3000.0}, {"ratio", 0.5},         {"gate", 0.35},
                               {"verdict", "pass"}};
  properties.update(course::clock_properties(before, after));
  const nlohmann::json end = {
      {"event", "end"}, {"test", "tiled/S.t/timed"},           {"status", "passed"},
      {"ms", 812.0},    {"failures", nlohmann::json::array()}, {"properties", properties}};
  const std::string line =
      end.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";

  const auto log = parse_log(line);
  ASSERT_EQ(log.finished.size(), 1u);
  const auto s = course::SpeedFigures::from_properties(log.finished[0].properties);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->sm_clock_mhz_before, 1980);
  EXPECT_EQ(s->sm_clock_mhz_after, 1410);
  EXPECT_EQ(s->mem_clock_mhz_before, 2619);
  EXPECT_EQ(s->mem_clock_mhz_after, 2619);
  EXPECT_EQ(s->temperature_c_before, 71);
  EXPECT_EQ(s->temperature_c_after, 88);
  EXPECT_EQ(s->throttle_reasons, (std::vector<std::string>{"sw_thermal", "hw_thermal"}));
  EXPECT_EQ(course::clocks_line(*s),
            "clocks: SM 1980 -> 1410 MHz, memory 2619 MHz, 71 -> 88 C, throttled: sw_thermal, "
            "hw_thermal (as found, not locked by the grader)");

  // A record from a machine without NVML: no figures, and none invented.
  const auto bare = course::SpeedFigures::from_properties(
      parse_log(nlohmann::json{{"event", "end"},
                               {"test", "tiled/S.t/timed"},
                               {"status", "passed"},
                               {"properties", {{"kind", "speed"}, {"gbps", 1500.0}}}}
                    .dump() +
                "\n")
          .finished.at(0)
          .properties);
  ASSERT_TRUE(bare.has_value());
  EXPECT_FALSE(bare->has_clocks());
}

// The re-measure record, as harness::run_speed_check records it (record() takes numbers as
// doubles, so the pair counts travel as 30.0 and 600.0), read back into SpeedFigures.
TEST(Protocol, RemeasureRoundTrip) {
  const nlohmann::json properties = {
      {"kind", "speed"},    {"gbps", 1500.0},     {"ceiling_gbps", 3000.0},
      {"ratio", 0.5},       {"ratio_q1", 0.49},   {"ratio_q3", 0.51},
      {"gate", 0.5},        {"pairs", 600.0},     {"verdict", "pass"},
      {"close_call", true}, {"remeasured", true}, {"pairs_at_first_decision", 30.0}};
  const nlohmann::json end = {
      {"event", "end"}, {"test", "tiled/S.t/timed"},           {"status", "passed"},
      {"ms", 4800.0},   {"failures", nlohmann::json::array()}, {"properties", properties}};
  const auto log =
      parse_log(end.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  ASSERT_EQ(log.finished.size(), 1u);
  const auto s = course::SpeedFigures::from_properties(log.finished[0].properties);
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->close_call);
  EXPECT_TRUE(s->remeasured);
  EXPECT_EQ(s->pairs_at_first_decision, 30);
  EXPECT_EQ(s->pairs, 600);
  EXPECT_EQ(course::remeasure_note(*s),
            "re-measured: the first 30 pairs straddled the gate, decided on 600 pairs");

  // Not re-measured: the harness records "remeasured": false and no count.
  nlohmann::json settled = end;
  settled["properties"]["remeasured"] = false;
  settled["properties"].erase("pairs_at_first_decision");
  const auto t = course::SpeedFigures::from_properties(
      parse_log(settled.dump() + "\n").finished.at(0).properties);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->remeasured);
  EXPECT_EQ(t->pairs_at_first_decision, 0);
  EXPECT_EQ(course::remeasure_note(*t), "");
}

TEST(Protocol, StepOfTestName) {
  EXPECT_EQ(course::protocol::step_of("tiled_padded/TransposeSpeed.meets_gate/timed"),
            "tiled_padded");
  EXPECT_EQ(course::protocol::step_of("NoStep.test"), "");
}

}  // namespace
