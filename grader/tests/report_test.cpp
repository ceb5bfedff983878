// Step decisions and the four renderings of a report.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "course/clocks.hpp"
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

// What a speed test records around its timing loop when NVML answers every query.
nlohmann::json clocks() {
  course::ClockSample before, after;
  before.sm_mhz = 1980;
  after.sm_mhz = 1965;
  before.mem_mhz = after.mem_mhz = 3201;
  before.temperature_c = 41;
  after.temperature_c = 47;
  before.event_reasons = 0x1;  // GPU idle: not a thermal or power reason
  after.event_reasons = 0x0;
  return course::clock_properties(before, after);
}

// What a speed test records when its first 30 pairs straddled the gate and it went on to 120.
nlohmann::json remeasured() {
  return {{"remeasured", true}, {"pairs_at_first_decision", 30.0}, {"pairs", 120.0}};
}

// The tiled step's speed test carries clock figures when `with_clocks`, and was re-measured when
// `with_remeasure`; the naive one never has either (as on a machine without NVML), so one report
// shows both.
course::Report sample(bool with_clocks = true, bool with_remeasure = false) {
  nlohmann::json tiled_speed = speed(0.48, 0.35, "pass");
  if (with_clocks) tiled_speed.update(clocks());
  if (with_remeasure) tiled_speed.update(remeasured());
  const std::vector<std::string> expected = {
      "naive/C.m/1x1",        "naive/S.t/timed",        "tiled/C.m/1x1",         "tiled/S.t/timed",
      "tiled_padded/C.m/1x1", "tiled_padded/C.m/33x31", "tiled_padded/S.t/timed"};
  std::vector<TestRecord> records = {
      {"naive/C.m/1x1", course::TestStatus::passed, {}, {}, 1},
      {"naive/S.t/timed",
       course::TestStatus::passed,
       {},
       {{"kind", "speed"}, {"ratio", 0.15}, {"gate", nullptr}, {"verdict", "pass"}, {"gbps", 540}},
       1},
      {"tiled/C.m/1x1", course::TestStatus::passed, {}, {}, 1},
      {"tiled/S.t/timed", course::TestStatus::passed, {}, tiled_speed, 1},
      {"tiled_padded/C.m/1x1", course::TestStatus::passed, {}, {}, 1},
      {"tiled_padded/C.m/33x31",
       course::TestStatus::failed,
       {"1 of 1023 elements wrong <&>"},
       {},
       1},
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
  l.status = course::LessonStatus::fail;
  r.lessons.push_back(l);
  return r;
}

TEST(BuildSteps, PassFailAndNotRun) {
  const course::Report r = sample();
  const auto& steps = r.lessons[0].steps;
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].status, course::StepStatus::pass);
  EXPECT_EQ(steps[1].status, course::StepStatus::pass);
  ASSERT_TRUE(steps[1].speed.has_value());
  EXPECT_DOUBLE_EQ(steps[1].speed->ratio, 0.48);
  EXPECT_EQ(steps[2].status, course::StepStatus::fail);
  EXPECT_EQ(steps[2].tests_total, 3);
  EXPECT_EQ(steps[2].tests_passed, 1);
  ASSERT_EQ(steps[2].problems.size(), 2u);
  EXPECT_EQ(steps[2].problems[1].status, course::TestStatus::not_run);
  EXPECT_EQ(r.exit_code(), course::kExitFailed);
}

TEST(BuildSteps, StepWithoutTestsFails) {
  const auto steps = course::build_steps(transpose(), all_steps(), {}, {});
  for (const auto& s : steps) {
    EXPECT_EQ(s.status, course::StepStatus::fail);
    EXPECT_NE(s.reason.find("no hidden tests"), std::string::npos);
  }
}

TEST(BuildSteps, CorrectButSlowSaysSo) {
  const std::vector<std::string> expected = {"tiled_padded/C.m/1x1", "tiled_padded/S.t/timed"};
  const std::vector<TestRecord> records = {
      {"tiled_padded/C.m/1x1", course::TestStatus::passed, {}, {}, 1},
      {"tiled_padded/S.t/timed",
       course::TestStatus::failed,
       {"too slow, below the gate: 1630 GB/s against a ceiling of 3622 GB/s: 45.0%"},
       speed(0.48, 0.85, "fail"),
       1}};
  const auto steps =
      course::build_steps(transpose(), {transpose().find_step("tiled_padded")}, expected, records);
  EXPECT_EQ(steps[0].status, course::StepStatus::fail);
  EXPECT_EQ(steps[0].reason, "correct, but not fast enough");
}

// A speed test that caught a wrong timed output, or a figure no whole kernel reaches, is not
// "correct, but not fast enough", whatever the gate's verdict: a kernel that remembers results
// (05's full_work_first_launch_only: 1,302% of CUB, verdict "impossible") was told it was correct.
TEST(BuildSteps, ACaughtCheatIsNotCalledCorrect) {
  const std::vector<std::string> expected = {"tiled_padded/C.m/1x1", "tiled_padded/S.t/timed"};
  const struct {
    const char* failure;
    const char* verdict;
    const char* reason;
  } cases[] = {
      {"the timed results were wrong: timed launch 38 of 40 (8192x8192), on inputs of its own, "
       "left a wrong output: out: 67108864 of 67108864 elements wrong",
       "impossible", "the timed results were wrong"},
      {"the timed results were wrong: timed launch 3 of 10 (8192x8192) ...", "fail",
       "the timed results were wrong"},
      {"the timed results were wrong: timed launch 3 of 10 (8192x8192) ...", "pass",
       "the timed results were wrong"},
      {"rejected: 12000 GB/s against a ceiling of 3622 GB/s: measured 331% of the ceiling",
       "impossible", "faster than a kernel doing the whole task can reach: rejected"},
  };
  for (const auto& c : cases) {
    const std::vector<TestRecord> records = {
        {"tiled_padded/C.m/1x1", course::TestStatus::passed, {}, {}, 1},
        {"tiled_padded/S.t/timed",
         course::TestStatus::failed,
         {c.failure},
         speed(3.3, 0.85, c.verdict),
         1}};
    const auto steps = course::build_steps(transpose(), {transpose().find_step("tiled_padded")},
                                           expected, records);
    EXPECT_EQ(steps[0].status, course::StepStatus::fail) << c.failure;
    EXPECT_EQ(steps[0].reason, c.reason) << c.failure;
  }
}

// A skipped step (03's large cases under --quick) is counted apart: "1 of 2 steps passed" alone
// reads as a failure of a lesson that passed.
TEST(Text, CountsSkippedStepsApart) {
  course::Report r = sample();
  r.lessons[0].steps[2].status = course::StepStatus::skipped;
  const std::string t = course::to_text(r, course::TextOptions{false, false, "g"});
  EXPECT_NE(t.find("2 of 3 steps passed, 1 skipped (reasons above)."), std::string::npos) << t;
  EXPECT_EQ(course::to_text(sample(), course::TextOptions{false, false, "g"}).find("skipped ("),
            std::string::npos);
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
  EXPECT_NE(t.find("2 of 3 steps passed."), std::string::npos);
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
  extension.status = course::StepStatus::skipped;
  extension.reason = "needs compute capability 8.0";
  r.lessons[0].steps.push_back(extension);
  const nlohmann::json g = course::to_gradescope(r, "");
  ASSERT_EQ(g["tests"].size(), 4u);
  EXPECT_EQ(g["tests"][3]["name"], "07_transpose.tiled_cp_async (optional)");
  EXPECT_EQ(g["tests"][3]["max_score"], 0);
  EXPECT_EQ(g["tests"][3]["status"], "passed");
  EXPECT_EQ(g["score"], 2);
}

TEST(Gradescope, ASkippedRequiredStepIsNotGraded) {
  course::Report r = sample();
  course::StepReport large;
  large.name = "large";
  large.status = course::StepStatus::skipped;
  large.reason = "needs 24 GiB of device memory";
  r.lessons[0].steps.push_back(large);
  const nlohmann::json g = course::to_gradescope(r, "");
  ASSERT_EQ(g["tests"].size(), 4u);
  EXPECT_EQ(g["tests"][3]["name"], "07_transpose.large (skipped here: not graded)");
  EXPECT_EQ(g["tests"][3]["max_score"], 0);
  EXPECT_EQ(g["tests"][3]["score"], 0);
  EXPECT_EQ(g["tests"][3]["status"], "passed");
  EXPECT_EQ(g["score"], 2);
  // A required step that ran and failed still costs its point.
  EXPECT_EQ(g["tests"][2]["max_score"], 1);
  EXPECT_EQ(g["tests"][2]["status"], "failed");
}

TEST(ExitCode, Precedence) {
  course::Report r;
  EXPECT_EQ(r.exit_code(), course::kExitFailed);  // nothing graded is not a pass
  course::LessonReport l;
  l.status = course::LessonStatus::pass;
  r.lessons = {l};
  EXPECT_EQ(r.exit_code(), course::kExitOk);
  l.status = course::LessonStatus::no_gpu;
  r.lessons.push_back(l);
  EXPECT_EQ(r.exit_code(), course::kExitNoGpu);
  l.status = course::LessonStatus::build_failed;  // a compile error is more useful to hear about
                                                  // than the missing GPU
  r.lessons.push_back(l);
  EXPECT_EQ(r.exit_code(), course::kExitBuildFailed);
  l.status = course::LessonStatus::error;
  r.lessons.push_back(l);
  EXPECT_EQ(r.exit_code(), course::kExitInternal);
}

TEST(Clocks, ThrottleReasonsAreThermalOrPowerOnly) {
  EXPECT_TRUE(course::throttle_reasons(0).empty());
  // GPU idle, application clocks, sync boost, display clocks: no heat or power behind them.
  EXPECT_TRUE(course::throttle_reasons(0x1 | 0x2 | 0x10 | 0x100).empty());
  EXPECT_EQ(course::throttle_reasons(0x40 | 0x4),
            (std::vector<std::string>{"sw_power_cap", "hw_thermal"}));
  EXPECT_EQ(course::throttle_reasons(~0ULL),
            (std::vector<std::string>{"sw_power_cap", "hw_slowdown", "sw_thermal", "hw_thermal",
                                      "hw_power_brake"}));
}

TEST(Clocks, PropertiesLeaveOutWhatWasNotRead) {
  EXPECT_EQ(course::clock_properties({}, {}), nlohmann::json::object());
  course::ClockSample before, after;
  before.sm_mhz = 1755;
  after.temperature_c = 52;
  const nlohmann::json p = course::clock_properties(before, after);
  EXPECT_EQ(p, (nlohmann::json{{"sm_clock_mhz_before", 1755}, {"temperature_c_after", 52}}));
  EXPECT_TRUE(p["sm_clock_mhz_before"].is_number_integer());
}

TEST(Clocks, ThrottleReasonsOfBothReadingsOnce) {
  course::ClockSample before, after;
  before.event_reasons = 0x20 | 0x4;  // sw_thermal, sw_power_cap
  after.event_reasons = 0x4 | 0x1;    // sw_power_cap, idle
  EXPECT_EQ(course::clock_properties(before, after)["throttle_reasons"],
            (nlohmann::json{"sw_power_cap", "sw_thermal"}));
  // One reading is enough to say "none"; an empty list is not the same as not knowing.
  after.event_reasons.reset();
  before.event_reasons = 0x1;
  EXPECT_EQ(course::clock_properties(before, after)["throttle_reasons"], nlohmann::json::array());
}

TEST(Clocks, SpeedFiguresReadThemOrLeaveThemAbsent) {
  nlohmann::json p = speed(0.48, 0.35, "pass");
  const auto without = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(without.has_value());
  EXPECT_FALSE(without->has_clocks());
  EXPECT_EQ(course::clocks_line(*without), "");

  p.update(clocks());
  const auto with = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(with.has_value());
  EXPECT_TRUE(with->has_clocks());
  EXPECT_EQ(with->sm_clock_mhz_before, 1980);
  EXPECT_EQ(with->sm_clock_mhz_after, 1965);
  EXPECT_EQ(with->mem_clock_mhz_before, 3201);
  EXPECT_EQ(with->mem_clock_mhz_after, 3201);
  EXPECT_EQ(with->temperature_c_before, 41);
  EXPECT_EQ(with->temperature_c_after, 47);
  ASSERT_TRUE(with->throttle_reasons.has_value());
  EXPECT_TRUE(with->throttle_reasons->empty());

  // A malformed figure is not a figure.
  p["sm_clock_mhz_before"] = "1980 MHz";
  p["throttle_reasons"] = "none";
  const auto malformed = course::SpeedFigures::from_properties(p);
  EXPECT_FALSE(malformed->sm_clock_mhz_before.has_value());
  EXPECT_FALSE(malformed->throttle_reasons.has_value());
  EXPECT_EQ(malformed->sm_clock_mhz_after, 1965);
}

TEST(Clocks, LineSaysWhatWasRead) {
  nlohmann::json p = speed(0.48, 0.35, "pass");
  p.update(clocks());
  course::SpeedFigures s = *course::SpeedFigures::from_properties(p);
  EXPECT_EQ(course::clocks_line(s),
            "clocks: SM 1980 -> 1965 MHz, memory 3201 MHz, 41 -> 47 C, not throttled "
            "(as found, not locked by the grader)");
  // A steady SM clock still shows both readings; a changed memory clock shows both too.
  s.sm_clock_mhz_after = 1980;
  s.mem_clock_mhz_after = 2619;
  s.temperature_c_before.reset();
  s.throttle_reasons = std::vector<std::string>{"sw_power_cap", "hw_thermal"};
  EXPECT_EQ(course::clocks_line(s),
            "clocks: SM 1980 -> 1980 MHz, memory 3201 -> 2619 MHz, 47 C, throttled: "
            "sw_power_cap, hw_thermal (as found, not locked by the grader)");
  // Only what was read: a temperature alone, throttling unknown.
  course::SpeedFigures t;
  t.temperature_c_after = 60;
  EXPECT_EQ(course::clocks_line(t), "clocks: 60 C (as found, not locked by the grader)");
  t = course::SpeedFigures{};
  t.sm_clock_mhz_after = 1410;
  EXPECT_EQ(course::clocks_line(t), "clocks: SM 1410 MHz (as found, not locked by the grader)");
}

TEST(Clocks, TextShowsThemUnderTimedStepsThatHaveThem) {
  const std::string t = course::to_text(sample(), course::TextOptions{});
  const std::string line =
      "\n        clocks: SM 1980 -> 1965 MHz, memory 3201 MHz, 41 -> 47 C, not throttled (as "
      "found, not locked by the grader)\n";
  // Right under the tiled step's line, and only there (the naive step has no figures).
  const auto tiled = t.find("PASS  tiled ");
  ASSERT_NE(tiled, std::string::npos) << t;
  EXPECT_EQ(t.find(line), t.find('\n', tiled)) << t;
  EXPECT_EQ(t.find("clocks:"), t.rfind("clocks:")) << t;
  const std::string without = course::to_text(sample(false), course::TextOptions{});
  EXPECT_EQ(without.find("clocks:"), std::string::npos) << without;
  // JUnit and Gradescope show each step's details, clocks included.
  const nlohmann::json g = course::to_gradescope(sample(), "");
  EXPECT_NE(g["tests"][1]["output"].get<std::string>().find("clocks: SM 1980 -> 1965 MHz"),
            std::string::npos);
  EXPECT_NE(course::to_junit(sample()).find("clocks: SM 1980 -&gt; 1965 MHz"), std::string::npos);
}

TEST(Clocks, JsonHasThemOnlyWhenRead) {
  const nlohmann::json j = course::to_json(sample());
  const auto& steps = j["lessons"][0]["steps"];
  const nlohmann::json& tiled = steps[1]["speed"];
  EXPECT_EQ(tiled["sm_clock_mhz_before"], 1980);
  EXPECT_EQ(tiled["sm_clock_mhz_after"], 1965);
  EXPECT_EQ(tiled["mem_clock_mhz_before"], 3201);
  EXPECT_EQ(tiled["mem_clock_mhz_after"], 3201);
  EXPECT_EQ(tiled["temperature_c_before"], 41);
  EXPECT_EQ(tiled["temperature_c_after"], 47);
  EXPECT_TRUE(tiled["sm_clock_mhz_before"].is_number_integer());
  EXPECT_EQ(tiled["throttle_reasons"], nlohmann::json::array());
  const char* keys[] = {"sm_clock_mhz_before", "sm_clock_mhz_after",   "mem_clock_mhz_before",
                        "mem_clock_mhz_after", "temperature_c_before", "temperature_c_after",
                        "throttle_reasons"};
  for (const char* k : keys) EXPECT_FALSE(steps[0]["speed"].contains(k)) << k;
  // Without figures the speed object is exactly what it was before clocks were recorded (15
  // fields, and remeasured and pairs_at_first_decision, added since).
  const nlohmann::json old = course::to_json(sample(false))["lessons"][0]["steps"][1]["speed"];
  EXPECT_EQ(old.size(), 17u) << old.dump();
  nlohmann::json stripped = tiled;
  for (const char* k : keys) stripped.erase(k);
  EXPECT_EQ(stripped, old);
}

TEST(RemeasureReport, SpeedFiguresReadItOrSayNot) {
  nlohmann::json p = speed(0.48, 0.35, "pass");
  const auto without = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(without.has_value());
  EXPECT_FALSE(without->remeasured);
  EXPECT_EQ(without->pairs_at_first_decision, 0);
  EXPECT_EQ(course::remeasure_note(*without), "");

  p.update(remeasured());
  const auto with = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(with.has_value());
  EXPECT_TRUE(with->remeasured);
  EXPECT_EQ(with->pairs_at_first_decision, 30);
  EXPECT_EQ(with->pairs, 120);
  EXPECT_EQ(course::remeasure_note(*with),
            "re-measured: the first 30 pairs straddled the gate, decided on 120 pairs");

  // Malformed: not a bool is not a re-measure; a count without "remeasured": true is ignored.
  p["remeasured"] = "yes";
  const auto text = course::SpeedFigures::from_properties(p);
  EXPECT_FALSE(text->remeasured);
  EXPECT_EQ(text->pairs_at_first_decision, 0);
  p["remeasured"] = true;
  p["pairs_at_first_decision"] = "30";
  const auto no_count = course::SpeedFigures::from_properties(p);
  EXPECT_TRUE(no_count->remeasured);
  EXPECT_EQ(no_count->pairs_at_first_decision, 0);
  EXPECT_EQ(course::remeasure_note(*no_count),
            "re-measured: the first pairs straddled the gate, decided on 120 pairs");
}

TEST(RemeasureReport, TextNotesItOnTheTimedStepLineOnly) {
  const std::string note =
      "; re-measured: the first 30 pairs straddled the gate, decided on 120 pairs";
  const std::string t = course::to_text(sample(false, true), course::TextOptions{});
  // On the tiled step's own line, after its figures.
  const auto tiled = t.find("PASS  tiled ");
  ASSERT_NE(tiled, std::string::npos) << t;
  const std::string line = t.substr(tiled, t.find('\n', tiled) - tiled);
  EXPECT_NE(line.find("1,728 GB/s = 48.0% of ceiling; needs 35%, margin + 13.0 pts" + note),
            std::string::npos)
      << line;
  EXPECT_EQ(t.find("re-measured"), t.rfind("re-measured")) << t;  // once: naive was not
  EXPECT_NE(t.find("median of 120 interleaved pairs"), std::string::npos) << t;
  // Not re-measured: no note anywhere.
  for (const course::Report& r : {sample(), sample(false)}) {
    const std::string plain = course::to_text(r, course::TextOptions{});
    EXPECT_EQ(plain.find("re-measured"), std::string::npos) << plain;
    EXPECT_EQ(course::to_junit(r).find("re-measured"), std::string::npos);
  }
  // With a close call too, both are said.
  course::Report close = sample(false, true);
  course::SpeedFigures& s = *close.lessons[0].steps[1].speed;
  s.close_call = true;
  s.ratio = 0.351;
  s.pairs = 600;
  EXPECT_NE(course::to_text(close, course::TextOptions{})
                .find("margin + 0.1 pts (close call); re-measured: the first 30 pairs straddled "
                      "the gate, decided on 600 pairs"),
            std::string::npos)
      << course::to_text(close, course::TextOptions{});
  // JUnit and Gradescope show each step's details, the note included.
  const nlohmann::json g = course::to_gradescope(sample(false, true), "");
  EXPECT_NE(g["tests"][1]["output"].get<std::string>().find(note.substr(2)), std::string::npos);
  EXPECT_NE(course::to_junit(sample(false, true)).find(note.substr(2)), std::string::npos);
}

TEST(RemeasureReport, JsonSaysItEitherWay) {
  const nlohmann::json with = course::to_json(sample(false, true))["lessons"][0]["steps"];
  EXPECT_EQ(with[1]["speed"]["remeasured"], true);
  EXPECT_EQ(with[1]["speed"]["pairs_at_first_decision"], 30);
  EXPECT_TRUE(with[1]["speed"]["pairs_at_first_decision"].is_number_integer());
  EXPECT_EQ(with[1]["speed"]["pairs"], 120);
  // Not re-measured (and the naive step, which never had the properties): false and null.
  const nlohmann::json without = course::to_json(sample(false))["lessons"][0]["steps"];
  for (const nlohmann::json& step : {with[0], without[0], without[1]}) {
    EXPECT_EQ(step["speed"]["remeasured"], false) << step.dump();
    ASSERT_TRUE(step["speed"].contains("pairs_at_first_decision")) << step.dump();
    EXPECT_TRUE(step["speed"]["pairs_at_first_decision"].is_null()) << step.dump();
  }
}

// A --sanitize step on small shapes: one test passed, three skipped (two large shapes, the speed
// test). It read "PASS 1/4 tests", as if three tests had failed silently. GoogleTest may end a
// skip message with a newline (13_matmul_tiled --sanitize on the H200, tenth session): the reason
// still prints on one line.
course::LessonReport sanitized_naive() {
  const std::vector<std::string> expected = {"naive/C.m/1x1", "naive/C.m/2048x1536",
                                             "naive/C.m/1x100003", "naive/S.t/timed"};
  const std::vector<TestRecord> records = {
      {"naive/C.m/1x1", course::TestStatus::passed, {}, {}, 1},
      {"naive/C.m/2048x1536",
       course::TestStatus::skipped,
       {"quick mode: large shape skipped"},
       {},
       0},
      {"naive/C.m/1x100003",
       course::TestStatus::skipped,
       {"quick mode: large shape skipped\n"},
       {},
       0},
      {"naive/S.t/timed", course::TestStatus::skipped, {"quick mode: not timed\n"}, {}, 0}};
  course::LessonReport l;
  l.id = "07_transpose";
  l.title = "Transpose";
  l.status = course::LessonStatus::pass;
  l.message = "compute-sanitizer run: small shapes only, not timed";
  l.sanitize_tools = {"memcheck"};
  l.steps = course::build_steps(transpose(), {transpose().find_step("naive")}, expected, records);
  return l;
}

TEST(SkippedTests, CountedWithTheirReasons) {
  const course::StepReport s = sanitized_naive().steps.at(0);
  EXPECT_EQ(s.status, course::StepStatus::pass);
  EXPECT_EQ(s.tests_passed, 1);
  EXPECT_EQ(s.tests_total, 4);
  EXPECT_EQ(s.tests_skipped, 3);
  const std::vector<std::pair<std::string, int>> reasons = {{"large shape skipped", 2},
                                                            {"not timed", 1}};
  EXPECT_EQ(s.skip_reasons, reasons);
}

// A step whose every test was skipped takes its reason from the first skip: without the newline
// GoogleTest may end it with.
TEST(SkippedTests, AWhollySkippedStepsReasonIsOneLine) {
  const std::vector<std::string> expected = {"naive/C.m/1x1", "naive/S.t/timed"};
  const std::vector<TestRecord> records = {
      {"naive/C.m/1x1", course::TestStatus::skipped, {"this GPU has too little memory\n"}, {}, 0},
      {"naive/S.t/timed",
       course::TestStatus::skipped,
       {"this GPU has too little memory\n"},
       {},
       0}};
  const course::Lesson lesson = transpose();
  const std::vector<const course::Step*> steps = {&lesson.steps[0]};
  const auto out = course::build_steps(lesson, steps, expected, records);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].status, course::StepStatus::skipped);
  EXPECT_EQ(out[0].reason, "this GPU has too little memory");
}

TEST(SkippedTests, TextSaysHowManyAndWhy) {
  course::Report r;
  r.lessons.push_back(sanitized_naive());
  const std::string t = course::to_text(r, course::TextOptions{});
  EXPECT_NE(t.find(" 1/4  tests, 3 skipped under compute-sanitizer (large shape skipped x2, not "
                   "timed x1)"),
            std::string::npos)
      << t;
  r.lessons[0].sanitize_tools.clear();  // skipped in a timed grade: no compute-sanitizer to blame
  EXPECT_NE(course::to_text(r, course::TextOptions{}).find("tests, 3 skipped (large shape"),
            std::string::npos);
}

TEST(SkippedTests, JsonCountsThemAndNamesTheTools) {
  course::Report r;
  r.lessons.push_back(sanitized_naive());
  const nlohmann::json j = course::to_json(r);
  const nlohmann::json& step = j["lessons"][0]["steps"][0];
  EXPECT_EQ(step["tests_skipped"], 3);
  EXPECT_EQ(step["skipped"][0]["reason"], "large shape skipped");
  EXPECT_EQ(step["skipped"][0]["tests"], 2);
  EXPECT_EQ(j["lessons"][0]["sanitize_tools"][0], "memcheck");
  EXPECT_FALSE(step.contains("memcheck"));  // a --sanitize run has no memcheck stage
}

// The memcheck stage's fields, as a default grade fills them.
course::Report memchecked() {
  course::Report r = sample();
  course::LessonReport& l = r.lessons[0];
  l.memcheck = course::LessonMemcheck::ran;
  l.memcheck_note = "compute-sanitizer memcheck on the small shapes of ...: no errors in naive";
  for (course::StepReport& s : l.steps)
    s.memcheck = s.status == course::StepStatus::pass ? course::StepMemcheck::clean
                                                      : course::StepMemcheck::not_run;
  return r;
}

TEST(MemcheckReport, JsonAndTextCarryIt) {
  const course::Report r = memchecked();
  const nlohmann::json j = course::to_json(r);
  EXPECT_EQ(j["lessons"][0]["memcheck"]["status"], "ran");
  EXPECT_EQ(j["lessons"][0]["quick"], false);
  EXPECT_EQ(j["lessons"][0]["steps"][0]["memcheck"], "clean");
  EXPECT_EQ(j["lessons"][0]["steps"][2]["memcheck"], "not_run");
  const std::string t = course::to_text(r, course::TextOptions{});
  EXPECT_NE(t.find("  memcheck: compute-sanitizer memcheck on the small shapes"), std::string::npos)
      << t;
  EXPECT_NE(course::to_junit(r).find("memcheck: no errors on the small shapes"), std::string::npos);
}

// Writes a graded report's JUnit, Gradescope and --json renderings for validate_reports.py (the
// schema check runs as its own ctest, see CMakeLists.txt).
TEST(Samples, WriteForSchemaValidation) {
  const course::Report r = sample();
  const std::string dir = REPORT_SAMPLES_DIR;
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/graded.xml") << course::to_junit(r);
  std::ofstream(dir + "/graded.json")
      << course::to_gradescope(r, course::to_text(r, course::TextOptions{})).dump(2);
  // With clock figures and a re-measure, and with neither.
  std::ofstream(dir + "/graded_report.json") << course::to_json(sample(true, true)).dump(2);
  std::ofstream(dir + "/graded_report_no_clocks.json") << course::to_json(sample(false)).dump(2);
  // The memcheck stage's fields, and a --sanitize run's (skipped tests, tools).
  course::Report more = memchecked();
  more.lessons.push_back(sanitized_naive());
  more.lessons.push_back(sample().lessons[0]);
  more.lessons.back().kind = course::RunKind::quick;
  more.lessons.back().memcheck = course::LessonMemcheck::skipped;
  more.lessons.back().memcheck_note = "not run (--quick)";
  std::ofstream(dir + "/graded_report_memcheck.json") << course::to_json(more).dump(2);
  // A matrix product's FLOP rate and a host call's wall-clock figures (lessons 13 and 14).
  course::Report rates = sample();
  rates.lessons[0].steps[1].speed->flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  course::Report host = sample();
  host.lessons[0].steps[1].speed->call_ms = 5.81;
  host.lessons[0].steps[1].speed->ceiling_call_ms = 4.9;
  host.lessons[0].steps[1].speed->left_running_ms = 0.0;
  host.lessons[0].steps[1].speed->left_running_ms_max = 0.01;
  std::ofstream(dir + "/graded_report_flops.json") << course::to_json(rates).dump(2);
  std::ofstream(dir + "/graded_report_host_call.json") << course::to_json(host).dump(2);
  std::ofstream(dir + "/graded_memcheck.xml") << course::to_junit(more);
  std::ofstream(dir + "/graded_memcheck.json")
      << course::to_gradescope(more, course::to_text(more, course::TextOptions{})).dump(2);
  SUCCEED();
}

TEST(Format, GroupThousands) {
  EXPECT_EQ(course::group_thousands(3598.4), "3,598");
  EXPECT_EQ(course::group_thousands(999), "999");
  EXPECT_EQ(course::group_thousands(1234567), "1,234,567");
}

}  // namespace

// A step that declares its FLOPs (a matrix product, harness::Case::flops) is read in TFLOP/s: the
// rate comes from the same median time as the GB/s figure; the gate stays the ratio.
TEST(FlopRate, StepsThatDeclareFlopsShowTflops) {
  nlohmann::json p = speed(0.80, 0.60, "pass");
  p["bytes"] = 3.0 * 4096 * 4096 * 4;  // A, B and C of a 4096^3 product
  p["gbps"] = 80.0;                    // so the kernel took bytes / 80e9 s = 2.52 ms
  p["ceiling_gbps"] = 100.0;
  const auto bytes_only = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(bytes_only.has_value());
  EXPECT_EQ(bytes_only->flops, 0);
  EXPECT_EQ(bytes_only->tflops(), 0);
  course::Report r = sample();
  r.lessons[0].steps[1].speed = bytes_only;
  EXPECT_FALSE(course::to_json(r)["lessons"][0]["steps"][1]["speed"].contains("tflops"));

  p["flops"] = 2.0 * 4096.0 * 4096.0 * 4096.0;
  const auto s = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(s.has_value());
  // 2 x 4096^3 FLOP in 201,326,592 B / 80e9 B/s = 2.517 ms: 54.6 TFLOP/s; the ceiling 68.3.
  EXPECT_NEAR(s->tflops(),
              2.0 * 4096.0 * 4096.0 * 4096.0 / (p["bytes"].get<double>() / 80e9) / 1e12, 1e-9);
  EXPECT_NEAR(s->tflops(), 54.61, 0.01);
  EXPECT_NEAR(s->ceiling_tflops(), 68.27, 0.01);
  r.lessons[0].steps[1].speed = s;
  const nlohmann::json j = course::to_json(r)["lessons"][0]["steps"][1]["speed"];
  EXPECT_NEAR(j["tflops"].get<double>(), 54.61, 0.01);
  EXPECT_NEAR(j["ceiling_tflops"].get<double>(), 68.27, 0.01);

  // A malformed or negative figure is no figure.
  p["flops"] = "lots";
  EXPECT_EQ(course::SpeedFigures::from_properties(p)->flops, 0);
  p["flops"] = -1.0;
  EXPECT_EQ(course::SpeedFigures::from_properties(p)->flops, 0);
}

TEST(FlopRate, TextSaysTflopsAndTheFormula) {
  course::Report r = sample();
  course::StepReport& tiled = r.lessons[0].steps[1];
  ASSERT_TRUE(tiled.speed.has_value());
  tiled.speed->bytes = 3.0 * 4096 * 4096 * 4;
  tiled.speed->flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  const std::string t = course::to_text(r, course::TextOptions{false, false, "g"});
  EXPECT_NE(t.find("TFLOP/s = 48.0% of ceiling"), std::string::npos) << t;
  EXPECT_NE(t.find("2 M N K"), std::string::npos) << t;
  EXPECT_EQ(t.find("effective bandwidth ="), std::string::npos) << t;
}

// A host-call step (lesson 14) is timed on the wall clock: the report shows the call's time, the
// ceiling's, and whether the GPU still ran after the call returned (issue: "work left running
// after return is counted and reported"); the footer's formula is the wall-clock one.
TEST(HostCall, WallClockFiguresAndWorkLeftRunning) {
  nlohmann::json p = speed(0.83, 0.70, "pass");
  const auto kernel = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(kernel.has_value());
  EXPECT_FALSE(kernel->call_ms.has_value());
  p["call_ms"] = 5.81;
  p["ceiling_ms"] = 4.9;
  p["left_running_ms"] = 0.01;
  p["left_running_ms_max"] = 0.3;  // one slow sample: no accusation (the median decides)
  const auto host = course::SpeedFigures::from_properties(p);
  ASSERT_TRUE(host.has_value());
  ASSERT_TRUE(host->call_ms.has_value());
  EXPECT_DOUBLE_EQ(*host->call_ms, 5.81);
  course::Report r = sample();
  r.lessons[0].steps[1].speed = host;
  std::string t = course::to_text(r, course::TextOptions{});
  EXPECT_NE(t.find("wall clock: your call 5.81 ms, the ceiling's 4.90 ms; nothing ran on after "
                   "your call returned"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("wall time of the whole call"), std::string::npos) << t;
  EXPECT_EQ(t.find("effective bandwidth ="), std::string::npos) << t;
  EXPECT_EQ(t.find("datasheet peak"), std::string::npos) << t;
  const nlohmann::json j = course::to_json(r)["lessons"][0]["steps"][1]["speed"];
  EXPECT_DOUBLE_EQ(j["left_running_ms_max"].get<double>(), 0.3);

  r.lessons[0].steps[1].speed->left_running_ms = 1.5;
  r.lessons[0].steps[1].speed->left_running_ms_max = 2.25;
  t = course::to_text(r, course::TextOptions{});
  EXPECT_NE(t.find("the GPU still ran 1.50 ms after your call returned (median; longest 2.25 ms)"),
            std::string::npos)
      << t;

  // A kernel step's JSON gains none of these keys; a negative or malformed figure is none.
  EXPECT_FALSE(course::to_json(sample())["lessons"][0]["steps"][1]["speed"].contains("call_ms"));
  p["call_ms"] = -1.0;
  p["left_running_ms"] = "soon";
  const auto bad = course::SpeedFigures::from_properties(p);
  EXPECT_FALSE(bad->call_ms.has_value());
  EXPECT_FALSE(bad->left_running_ms.has_value());
}
