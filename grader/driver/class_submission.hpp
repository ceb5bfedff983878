// What a class's grading takes from a submission: the exercises/ files of the graded lessons (read
// without changing the submission: a folder, or a git repository at a ref), what it left out, and
// their fingerprint. With the file comparisons the work tree uses too (class_work_tree.hpp).
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "roster.hpp"

namespace driver {

/// What a submission gives: its exercises/ files of the graded lessons, and what was left out.
struct Intake {
  std::map<std::string, std::string> files;  ///< "exercises/<lesson>/<file>" -> content
  std::vector<std::string> ignored;  ///< files outside exercises/ that differ from the course
  std::vector<std::string> missing;  ///< stub files the submission lacks (the stub is graded)
  std::string error;                 ///< "" = usable; else why nothing can be graded
  std::string fingerprint;           ///< SHA-256 of the files taken (12 hex digits)
  std::string commit;                ///< a git submission: the commit its ref resolved to
};

/// Reads `entry`'s submission (a folder, or `git archive` of its ref extracted into `scratch`,
/// removed again before it returns) without changing it. Only exercises/<lesson>/ of `lessons` is
/// taken; other files that differ from the clean course in `course_dir`, or are not in it, are
/// listed as ignored (build trees, .git and .grader are not looked into).
Intake take_submission(const RosterEntry& entry, const std::vector<std::string>& lessons,
                       const std::string& course_dir, const std::string& scratch);

/// Whether the file at `a` holds exactly `content`.
bool same_content(const std::filesystem::path& a, const std::string& content);

/// Relative paths of the regular files under `root`, not looking into `skip` folders (relative).
std::set<std::string> files_under(const std::filesystem::path& root,
                                  const std::set<std::string>& skip = {});

/// "git rev-parse REF^{commit}" of a git submission: the commit its ref names now ("" when none).
std::string resolve_commit(const RosterEntry& entry);

/// The exercises/<lesson>/ files of `lessons` under `root` (relative path -> content); those that
/// are not regular files (symlinks, devices) are listed in `skipped` (may be null). Build trees,
/// .git and .grader are not looked into.
std::map<std::string, std::string> exercise_files(const std::filesystem::path& root,
                                                  const std::vector<std::string>& lessons,
                                                  std::vector<std::string>* skipped);

/// 12 hex digits of a SHA-256 of `files`' paths and contents, in path order.
std::string files_fingerprint(const std::map<std::string, std::string>& files);

}  // namespace driver
