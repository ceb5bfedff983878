// Running a lesson's hidden tests in watched child processes (a fresh one after every sticky
// error, crash or hang) and turning their records into steps: what every kind of run of grade()
// shares (grade.cpp), whether the tests run timed or on small shapes under compute-sanitizer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "course/manifest.hpp"
#include "course/protocol.hpp"
#include "course/report.hpp"
#include "grade_options.hpp"

namespace driver {

/// One hidden-test process of a run.
struct ProcessRun {
  std::uintmax_t log_from = 0, log_to = 0;  ///< its part of the run's log, in bytes
  std::vector<std::string> tests;           ///< the tests it started, in order
  std::string ended_on;  ///< the test whose sticky error, crash or hang ended it ("" = none)
};

/// The hidden tests of one target, run to the end in watched processes.
struct TestRun {
  std::vector<std::string> expected;  ///< every test the run should produce
  std::vector<course::protocol::TestRecord> records;
  std::string log_path;  ///< the processes' stdout and stderr
  std::vector<ProcessRun> processes;
};

/// An empty report of `lesson` as graded with `options`: what every report says, whatever
/// happens next (id, title, seed, variant, the kind of run).
course::LessonReport labelled_report(const course::Lesson& lesson, const GradeOptions& options);

/// Builds the lesson's target (unless GradeOptions::build is false) and checks that it can be
/// graded here. Fills `report` with a non-pass status and returns false when it cannot.
bool prepare(const course::Lesson& lesson, const GradeOptions& options,
             course::LessonReport& report);

/// The bytes [from, to) of the file at `path`.
std::string part_of(const std::string& path, std::uintmax_t from, std::uintmax_t to);

/// Runs the tests of `steps`, a fresh process after every sticky error, crash or hang, until each
/// test ran or its step spent its hang budget. Returns false with `report` filled when there is
/// no GPU, the GPU is too old or not the one the build's device images are for, a wrapper
/// cannot run here, the run broke down, or it was stopped
/// (GradeOptions::stop; the message starts "stopped: ").
bool run_tests(const course::Lesson& lesson, const std::vector<const course::Step*>& steps,
               const GradeOptions& options, nlohmann::json& device, course::LessonReport& report,
               TestRun& run);

/// The steps a selection names: one, or all of its lesson's.
std::vector<const course::Step*> selected_steps(const course::Selection& selection);

/// The steps' verdicts from the run's records, and the lesson's status (optional steps excused
/// when the whole lesson is graded; a step this machine cannot grade at all excused too).
void decide(const course::Lesson& lesson, const std::vector<const course::Step*>& steps,
            const TestRun& run, course::LessonReport& report);

}  // namespace driver
