// The child-to-grader report file, including what a crash leaves behind.
#include <gtest/gtest.h>

#include "course/protocol.hpp"

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
  EXPECT_EQ(log.finished[0].status, "failed");
  EXPECT_EQ(log.finished[0].failures.at(0), "m");
  EXPECT_EQ(log.finished[0].properties.value("shape", ""), "1x1");
  EXPECT_TRUE(log.running.empty());
  EXPECT_EQ(log.fatal_reason, "illegal address");
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

TEST(Protocol, NoGpuRecord) {
  const auto log = parse_log("{\"event\":\"no_gpu\",\"reason\":\"no CUDA-capable device\"}\n");
  EXPECT_TRUE(log.no_gpu);
  EXPECT_EQ(log.no_gpu_reason, "no CUDA-capable device");
}

TEST(Protocol, StepOfTestName) {
  EXPECT_EQ(course::protocol::step_of("tiled_padded/TransposeSpeed.meets_gate/timed"),
            "tiled_padded");
  EXPECT_EQ(course::protocol::step_of("NoStep.test"), "");
}

}  // namespace
