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

/// Builds the target; on failure returns false and fills `log` with the compiler's errors. On
/// success, `warnings` (when given) receives the compiler's warnings about the student's files
/// (student_warnings()): from this build when it compiled them, else those of the build that last
/// did (kept in grader-runs/<target>.warnings), since an unchanged file is not compiled again.
bool build_target(const GradeOptions& options, const std::string& target, std::string& log,
                  std::string* warnings = nullptr);

/// The compiler's warnings about the student's own files (paths with exercises/ or solutions/)
/// in a build's output, each with the lines under it that show where (nvcc's and gcc's source
/// line and caret); `source_dir` + "/" is cut from the paths. "" when there are none.
std::string student_warnings(const std::string& build_output, const std::string& source_dir);

/// Keeps the compiler's error lines (and a little context) from a build log, at most `max_lines`.
std::string compiler_errors(const std::string& build_output, std::size_t max_lines = 40);

/// Whether a failed build's output shows the build folder itself broken (CMake's cache missing or
/// made for another folder, its own files missing) rather than code that does not compile: the
/// grader's problem (exit code 5), not the student's (4). build_target() has already configured
/// the folder again once where its cache was there.
bool build_folder_broken(const std::string& build_output);

/// The report's first line when `target` could not be built, from what the build printed: the
/// build folder `binary_dir` broken (build_folder_broken(), with the preset that configures it
/// again), a file of the lesson missing (cmake/CourseLesson.cmake's "course configure error:"), a
/// link error, or a compile error.
std::string build_failure_message(const std::string& target, const std::string& build_output,
                                  const std::string& binary_dir = "build");

}  // namespace driver
