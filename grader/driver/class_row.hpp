// A class's gradebook rows: a student's row (OUT/students/<id>/row.json) from their report, or
// saying why they were not graded; whether a row is current or the student is to be graded again;
// and the student's files written (reports, JUnit, Gradescope results, then the row).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "class_setup.hpp"
#include "class_submission.hpp"
#include "course/manifest.hpp"
#include "course/report.hpp"

namespace driver {

/// The steps of `lessons` as gradebook columns: "<lesson>.<step>", in course order.
std::vector<std::string> step_columns(const course::Manifest& manifest,
                                      const std::vector<std::string>& lessons);

/// What identifies the settings a row was graded with (course, lessons, seed, options): a row
/// with another key is stale.
std::string settings_key(const ClassSettings& settings);

/// A gradebook row (row.json): "student", "status" (graded: every lesson graded, a build failure
/// included; incomplete: some lessons could not be graded here, e.g. no GPU; not_graded), "why",
/// "score" (required steps passed), "max_score", "steps" (column -> {status, reason, optional};
/// reason: the first line of the step's first failure when it has one, else the step's reason),
/// "seed_fingerprint", "submission" ({fingerprint, ref, commit, ignored, missing}), "tampered"
/// (course files the submission's code changed while graded: restored) and "key" (settings_key()).
nlohmann::json graded_row(const RosterEntry& entry, const ClassSettings& settings,
                          const course::Manifest& manifest, const course::Report& report,
                          const Intake& intake, const std::vector<std::string>& tampered);

/// The row of a student who could not be graded, saying why.
nlohmann::json not_graded_row(const std::string& student, const ClassSettings& settings,
                              const course::Manifest& manifest, const std::string& why);

/// Row `index`'s student's result, when there is one graded with `settings` (graded in full or
/// not: it is the gradebook's row).
bool has_current_row(const ClassDir& dir, const std::string& student,
                     const ClassSettings& settings);

/// The file that marks a student to be graded again (OUT/students/<id>/regrade).
inline constexpr const char* kRegradeMark = "regrade";

/// Whether `entry` is to be graded (again): unless its row was graded in full ("graded") with
/// `settings` from the submission as it is now (the same exercises/ fingerprint; for a git
/// submission, the same commit) and it is not marked for a regrade. A row that is not_graded
/// (e.g. a missing folder) or incomplete (e.g. no GPU) is graded again.
bool needs_grading(const ClassDir& dir, const RosterEntry& entry, const ClassSettings& settings);

/// Marks `student` to be graded again by the next task that reaches them, whatever their row.
void mark_for_regrade(const ClassDir& dir, const std::string& student);

/// Writes `student`'s report (text, JSON, JUnit, Gradescope's results.json) and, last, their
/// row.json, under OUT/students/<id>/.
void write_student_files(const ClassDir& dir, const std::string& student,
                         const course::Report& report, const nlohmann::json& row);

}  // namespace driver
