// Step decisions and the four renderings of a report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "course/manifest.hpp"
#include "course/report.hpp"

namespace {

using course::protocol::TestRecord;

const course::Lesson& transpose() {
  static const course::Manifest m =
      course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  return *m.find("07_transpose");
}

// The three required steps (the sample report has no extension tests).
std::vector<const course::Step*> all_steps() {
  return transpose().required_steps();
}

nlohmann::json speed(double ratio, double gate, const char* verdict) {
  return {{"kind", "speed"},
          {"shape", "8192x8192"},
          {"gbps", 3600 * ratio},
          {"ceiling_gbps", 3600},
          {"ratio", ratio},
          {"ratio_q1", ratio - 0.005},
          {"ratio_q3", ratio + 0.005},
          {"gate", gate},
          {"pairs", 30},
          {"verdict", verdict},
          {"memcpy_gbps", 4150},
          {"peak_gbps", 4915},
          {"ceiling_kernel", "copy_tiled"}};
}

course::Report sample() {
  const std::vector<std::string> expected = {
      "naive/C.m/1x1",        "naive/S.t/timed",        "tiled/C.m/1x1",         "tiled/S.t/timed",
      "tiled_padded/C.m/1x1", "tiled_padded/C.m/33x31", "tiled_padded/S.t/timed"};
  std::vector<TestRecord> records = {
      {"naive/C.m/1x1", "passed", {}, {}, 1},
      {"naive/S.t/timed",
       "passed",
       {},
       {{"kind", "speed"}, {"ratio", 0.15}, {"gate", nullptr}, {"verdict", "pass"}, {"gbps", 540}},
       1},
      {"tiled/C.m/1x1", "passed", {}, {}, 1},
      {"tiled/S.t/timed", "passed", {}, speed(0.48, 0.35, "pass"), 1},
      {"tiled_padded/C.m/1x1", "passed", {}, {}, 1},
      {"tiled_padded/C.m/33x31", "failed", {"1 of 1023 elements wrong <&>"}, {}, 1},
      // tiled_padded/S.t/timed never reported: must count as not run
  };
  course::Report r;
  r.grader_version = "0.1.0";
  r.course_version = "0.1.0";
  r.configuration = "exercises";
  r.device = {{"name", "Test GPU"}, {"sm", "90"}, {"sms", 132}, {"l2_bytes", 6.0e7}};
  course::LessonReport l;
  l.id = "07_transpose";
  l.title = "Transpose";
  l.seed = 7;
  l.steps = course::build_steps(transpose(), all_steps(), expected, records);
  l.status = "fail";
  r.lessons.push_back(l);
  return r;
}

TEST(BuildSteps, PassFailAndNotRun) {
  const course::Report r = sample();
  const auto& steps = r.lessons[0].steps;
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].status, "pass");
  EXPECT_EQ(steps[1].status, "pass");
  ASSERT_TRUE(steps[1].speed.has_value());
  EXPECT_DOUBLE_EQ(steps[1].speed->ratio, 0.48);
  EXPECT_EQ(steps[2].status, "fail");
  EXPECT_EQ(steps[2].tests_total, 3);
  EXPECT_EQ(steps[2].tests_passed, 1);
  ASSERT_EQ(steps[2].problems.size(), 2u);
  EXPECT_EQ(steps[2].problems[1].status, "not_run");
  EXPECT_EQ(r.exit_code(), course::kExitFailed);
}

TEST(BuildSteps, StepWithoutTestsFails) {
  const auto steps = course::build_steps(transpose(), all_steps(), {}, {});
  for (const auto& s : steps) {
    EXPECT_EQ(s.status, "fail");
    EXPECT_NE(s.reason.find("no hidden tests"), std::string::npos);
  }
}

TEST(BuildSteps, CorrectButSlowSaysSo) {
  const std::vector<std::string> expected = {"tiled_padded/C.m/1x1", "tiled_padded/S.t/timed"};
  const std::vector<TestRecord> records = {
      {"tiled_padded/C.m/1x1", "passed", {}, {}, 1},
      {"tiled_padded/S.t/timed", "failed", {"too slow"}, speed(0.48, 0.85, "fail"), 1}};
  const auto steps =
      course::build_steps(transpose(), {transpose().find_step("tiled_padded")}, expected, records);
  EXPECT_EQ(steps[0].status, "fail");
  EXPECT_EQ(steps[0].reason, "correct, but not fast enough");
}

TEST(Text, ShowsVerdictsFiguresFormulaAndHint) {
  const std::string t =
      course::to_text(sample(), course::TextOptions{false, false, "./build/grader"});
  EXPECT_NE(t.find("PASS  naive"), std::string::npos) << t;
  EXPECT_NE(t.find("PASS  tiled "), std::string::npos) << t;
  EXPECT_NE(t.find("FAIL  tiled_padded"), std::string::npos) << t;
  EXPECT_NE(t.find("1,728 GB/s = 48.0% of ceiling; needs 35%, margin + 13.0 pts"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("effective bandwidth = (bytes read + bytes written) / kernel time"),
            std::string::npos);
  EXPECT_NE(t.find("./build/grader hint 07_transpose.tiled_padded"), std::string::npos);
  EXPECT_NE(t.find("2 of 3 steps passed"), std::string::npos);
  EXPECT_EQ(t.find("\x1b["), std::string::npos);  // no colour unless asked
  const std::string c = course::to_text(sample(), course::TextOptions{true, false, "g"});
  EXPECT_NE(c.find("\x1b[1;32mPASS"), std::string::npos);
}

TEST(Json, StableFieldsAndExitCode) {
  const nlohmann::json j = course::to_json(sample());
  EXPECT_EQ(j["format"], "cuda-course-grader-report");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(j["exit_code"], 1);
  const auto& steps = j["lessons"][0]["steps"];
  EXPECT_EQ(steps[1]["speed"]["fraction_of_ceiling"], 0.48);
  EXPECT_EQ(steps[1]["speed"]["gate"], 0.35);
  EXPECT_NEAR(steps[1]["speed"]["margin"].get<double>(), 0.13, 1e-12);
  EXPECT_TRUE(steps[0]["speed"]["gate"].is_null());
  EXPECT_EQ(steps[2]["problems"][1]["status"], "not_run");
}

TEST(Junit, CountsAndEscapes) {
  const std::string x = course::to_junit(sample());
  EXPECT_EQ(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u);
  EXPECT_NE(x.find("<testsuites name=\"cuda-course\" tests=\"3\" failures=\"1\" errors=\"0\""),
            std::string::npos)
      << x;
  EXPECT_NE(x.find("&lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(x.find("<&>"), std::string::npos);
}

TEST(Gradescope, OnePointPerStep) {
  const nlohmann::json g = course::to_gradescope(sample(), "the text");
  EXPECT_EQ(g["score"], 2);
  ASSERT_EQ(g["tests"].size(), 3u);
  EXPECT_EQ(g["tests"][2]["name"], "07_transpose.tiled_padded");
  EXPECT_EQ(g["tests"][2]["status"], "failed");
  EXPECT_EQ(g["tests"][2]["max_score"], 1);
  EXPECT_EQ(g["output"], "the text");
}

TEST(Gradescope, OptionalStepsAreWorthNoPoints) {
  course::Report r = sample();
  course::StepReport extension;
  extension.name = "tiled_cp_async";
  extension.optional = true;
  extension.status = "skipped";
  extension.reason = "needs compute capability 8.0";
  r.lessons[0].steps.push_back(extension);
  const nlohmann::json g = course::to_gradescope(r, "");
  ASSERT_EQ(g["tests"].size(), 4u);
  EXPECT_EQ(g["tests"][3]["name"], "07_transpose.tiled_cp_async (optional)");
  EXPECT_EQ(g["tests"][3]["max_score"], 0);
  EXPECT_EQ(g["tests"][3]["status"], "passed");
  EXPECT_EQ(g["score"], 2);
}

TEST(ExitCode, Precedence) {
  course::Report r;
  EXPECT_EQ(r.exit_code(), course::kExitFailed);  // nothing graded is not a pass
  course::LessonReport l;
  l.status = "pass";
  r.lessons = {l};
  EXPECT_EQ(r.exit_code(), course::kExitOk);
  l.status = "no_gpu";
  r.lessons.push_back(l);
  EXPECT_EQ(r.exit_code(), course::kExitNoGpu);
  l.status = "build_failed";  // a compile error is more useful to hear about than the missing GPU
  r.lessons.push_back(l);
  EXPECT_EQ(r.exit_code(), course::kExitBuildFailed);
  l.status = "error";
  r.lessons.push_back(l);
  EXPECT_EQ(r.exit_code(), course::kExitInternal);
}

// Writes a graded report's JUnit and Gradescope renderings for tools/validate_reports.py (the
// schema check runs as its own ctest, see CMakeLists.txt).
TEST(Samples, WriteForSchemaValidation) {
  const course::Report r = sample();
  std::filesystem::create_directories(REPORT_SAMPLES_DIR);
  std::ofstream(std::string(REPORT_SAMPLES_DIR) + "/graded.xml") << course::to_junit(r);
  std::ofstream(std::string(REPORT_SAMPLES_DIR) + "/graded.json")
      << course::to_gradescope(r, course::to_text(r, course::TextOptions{})).dump(2);
  SUCCEED();
}

TEST(Format, GroupThousands) {
  EXPECT_EQ(course::group_thousands(3598.4), "3,598");
  EXPECT_EQ(course::group_thousands(999), "999");
  EXPECT_EQ(course::group_thousands(1234567), "1,234,567");
}

}  // namespace
