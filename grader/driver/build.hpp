// Building a lesson's hidden-test target and reading what the compiler and linker said: the
// target's name, the first-build note, the build itself (one at a time per build tree), the
// student's warnings, and the report's lines when it failed.
#pragma once

#include <cstddef>
#include <string>

#include "grade_options.hpp"

namespace driver {

/// Name of the executable target that grades `lesson` (with an optional variant).
std::string target_name(const std::string& lesson, const std::string& variant);

/// The line printed before a lesson's first build (no executable yet): what is built, for which
/// architectures, and roughly how long that takes on 2 cores.
std::string first_build_note(const std::string& lesson, const std::string& variant);

/// Builds the target; on failure returns false and fills `log` with the compiler's errors, and
/// `folder_broken` (when given) with build_folder_broken() of the whole output. A build folder
/// broken in its own CMake files is configured again from its cache once first; so is one that
/// lacks the target. On success, `warnings` (when given) receives the compiler's warnings about
/// the student's files (student_warnings()): from this build when it compiled them, else those of
/// the build that last did (kept in grader-runs/<target>.warnings), since an unchanged file is not
/// compiled again.
bool build_target(const GradeOptions& options, const std::string& target, std::string& log,
                  std::string* warnings = nullptr, bool* folder_broken = nullptr);

/// The compiler's warnings about the student's own files (paths with exercises/ or solutions/)
/// in a build's output, each with the lines under it that show where (nvcc's and gcc's source
/// line and caret); `source_dir` + "/" is cut from the paths. "" when there are none.
std::string student_warnings(const std::string& build_output, const std::string& source_dir);

/// Keeps the compiler's error lines (and a little context) from a build log, at most `max_lines`.
std::string compiler_errors(const std::string& build_output, std::size_t max_lines = 40);

/// Whether a failed build's whole output shows the build folder itself broken (CMake's cache
/// missing or made for another folder, its own files missing: gmake's, CMake's and Ninja's words)
/// and none of the student's files compiled: the grader's problem (exit code 5), not the student's
/// (4).
bool build_folder_broken(const std::string& build_output);

/// The report's first line when `target` could not be built, from what the build printed
/// (`build_output`, or build_target()'s log of it): the build folder `binary_dir` broken
/// (`folder_broken`, from build_target(): with the preset that configures it again), a file of the
/// lesson missing (cmake/CourseLesson.cmake's "course configure error:"), a link error, or a
/// compile error.
std::string build_failure_message(const std::string& target, const std::string& build_output,
                                  const std::string& binary_dir = "build",
                                  bool folder_broken = false);

}  // namespace driver
