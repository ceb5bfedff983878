// Running a lesson's hidden tests under one compute-sanitizer tool (small shapes, untimed, no
// rebuild) and telling which step each finding belongs to: the one way the default grade's
// memcheck stage and --sanitize (grade.cpp) run a tool.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "course/manifest.hpp"
#include "course/protocol.hpp"
#include "course/report.hpp"
#include "grade_options.hpp"
#include "sanitizer.hpp"

namespace driver {

/// A compute-sanitizer tool to run the tests under.
struct SanitizerTool {
  std::string program;  ///< the compute-sanitizer to run (usable_sanitizer())
  std::string name;     ///< memcheck, racecheck, synccheck or initcheck
  /// memcheck beside the hidden tests (grade.cpp): the run keeps the tests' own kernel and test
  /// time limits instead of the longer ones a sanitizer's slowdown asks for (a kernel that hangs
  /// costs it no more than the tests; a step it did not find clean is checked again, alone), and
  /// its logs go to the folder "<tool>-beside".
  bool beside_tests = false;
};

/// One step's hidden tests as they ran under a tool.
struct StepUnderTool {
  SanitizerFindings found;            ///< what the tool reported on this step
  std::vector<std::string> expected;  ///< the step's tests the run should have produced
  std::vector<course::protocol::TestRecord> records;  ///< the step's tests under the tool
  std::string log_path;                               ///< the output `found` was read from
};

/// Runs the tests of `step` alone under `tool`, in a run (and log folder) of its own,
/// "<tool>-<step>": everything the tool reported there is the step's. Returns false with `report`
/// filled, as run_tests() does, when the tests did not run.
bool run_step_under_tool(const course::Lesson& lesson, const course::Step& step,
                         const GradeOptions& options, const SanitizerTool& tool,
                         nlohmann::json& device, course::LessonReport& report, StepUnderTool& out);

/// Runs the tests of `steps` under `tool` in one run, "<tool>", and maps the tool's findings back
/// to the steps by test process; each step whose findings cannot be told apart from another's runs
/// again alone (run_step_under_tool()). `out` receives one entry per step. Returns false with
/// `report` filled, as run_tests() does, when the tests did not run.
bool run_steps_under_tool(const course::Lesson& lesson,
                          const std::vector<const course::Step*>& steps,
                          const GradeOptions& options, const SanitizerTool& tool,
                          nlohmann::json& device, course::LessonReport& report,
                          std::map<std::string, StepUnderTool>& out);

}  // namespace driver
