// The generated tables of the course's Markdown: the course map (from the manifest, between
// <!-- course-map:begin --> and <!-- course-map:end --> of README.md) and the exit codes (from
// course::exit_code_meanings(), between <!-- exit-codes:begin --> and <!-- exit-codes:end --> of
// README.md and docs/INSTRUCTORS.md). `grader dev readme` writes them; `grader dev check` and a
// unit test report a stale one.
#pragma once

#include <string>
#include <vector>

#include "course/manifest.hpp"

namespace driver {

/// The marked block's id in README.md: <!-- course-map:begin --> ... <!-- course-map:end -->.
inline constexpr const char* kCourseMapBlock = "course-map";
/// The exit-code table's block id: <!-- exit-codes:begin --> ... <!-- exit-codes:end -->.
inline constexpr const char* kExitCodesBlock = "exit-codes";

/// The course map as a Markdown table: one row per lesson in course order (number and title,
/// linked to the lesson's text when it is ready; its summary, with the `grader quiz` command when
/// it has a quiz (never a link to quiz.json, which holds the answers); the time it takes, from the
/// manifest's "minutes"; its status). `source_dir` is where lessons/ is, to find the quizzes.
std::string course_map_markdown(const course::Manifest& manifest, const std::string& source_dir);

/// Problems of README.md at `readme_path`: it cannot be read, lacks the course-map or the
/// exit-codes block, or a block is not what course_map_markdown() or course::exit_codes_markdown()
/// gives. Empty when current.
std::vector<std::string> readme_problems(const course::Manifest& manifest,
                                         const std::string& source_dir,
                                         const std::string& readme_path);

/// Problems of a document that carries only the exit-code table (docs/INSTRUCTORS.md): unreadable,
/// no exit-codes block, or a stale one. Empty when current.
std::vector<std::string> exit_code_table_problems(const std::string& path);

/// Rewrites the generated blocks the Markdown file at `path` has (the course map, the exit
/// codes; at least one). Returns "" on success, else why it could not (unreadable, no block,
/// unwritable); the file is then left as it was.
std::string write_readme_course_map(const course::Manifest& manifest, const std::string& source_dir,
                                    const std::string& path);

}  // namespace driver
