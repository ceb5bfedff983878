// Grading one roster row of a class: its submission's exercises/ files taken into a work tree (a
// clean course, built once and compiled again only where the files differ), the lessons graded
// there, and the student's reports and gradebook row written to OUT/students/<id>/. Every engine
// runs this, so a row is the same whichever engine graded it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "class_setup.hpp"
#include "course/manifest.hpp"
#include "course/report.hpp"

namespace driver {

/// How a task runs (engine-specific; nothing here changes a row).
struct TaskOptions {
  std::string work_dir;  ///< where work trees live (node-local disk under Slurm)
  /// GPUs the local engine shares among its tasks (each task takes one, in turn, for the GPU part
  /// only); empty = use what the environment gives (Slurm's CUDA_VISIBLE_DEVICES).
  std::vector<std::string> gpus;
  int batch = 1;         ///< roster rows per task index
  bool regrade = false;  ///< grade rows that already have a result
};

/// What a submission gives: its exercises/ files of the graded lessons, and what was left out.
struct Intake {
  std::map<std::string, std::string> files;  ///< "exercises/<lesson>/<file>" -> content
  std::vector<std::string> ignored;  ///< files outside exercises/ that differ from the course
  std::vector<std::string> missing;  ///< stub files the submission lacks (the stub is graded)
  std::string error;                 ///< "" = usable; else why nothing can be graded
  std::string fingerprint;           ///< SHA-256 of the files taken (12 hex digits)
  std::string commit;                ///< a git submission: the commit its ref resolved to
};

/// Reads `entry`'s submission (a folder, or `git archive` of its ref extracted into `scratch`)
/// without changing it. Only exercises/<lesson>/ of `lessons` is taken; other files that differ
/// from the clean course in `course_dir`, or are not in it, are listed as ignored (build trees,
/// .git and .grader are not looked into).
Intake take_submission(const RosterEntry& entry, const std::vector<std::string>& lessons,
                       const std::string& course_dir, const std::string& scratch);

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

/// Grades the roster rows of task `index` (rows index*batch .. index*batch+batch-1 of
/// OUT/roster.csv) that have no current row. Returns an exit code: 0 when each has its row now;
/// kExitUsage for an index past the roster or a secret that is not the class's; kExitInternal
/// when a work tree cannot be set up.
int run_class_task(const ClassDir& dir, int index, const TaskOptions& options,
                   const course::Manifest& manifest);

}  // namespace driver
