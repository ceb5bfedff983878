// The README's course map: a table generated from the manifest between the lines
// <!-- course-map:begin --> and <!-- course-map:end --> of README.md. `grader dev readme`
// writes it; `grader dev check` and a unit test report it when it is stale.
#pragma once

#include <string>
#include <vector>

#include "course/manifest.hpp"

namespace driver {

/// The marked block's id in README.md: <!-- course-map:begin --> ... <!-- course-map:end -->.
inline constexpr const char* kCourseMapBlock = "course-map";

/// The course map as a Markdown table: one row per lesson in course order (number and title,
/// linked to the lesson's text when it is ready; its summary, with the `grader quiz` command when
/// it has a quiz (never a link to quiz.json, which holds the answers); the time it takes, from the
/// manifest's "minutes"; its status). `source_dir` is where lessons/ is, to find the quizzes.
std::string course_map_markdown(const course::Manifest& manifest, const std::string& source_dir);

/// Problems of README.md at `readme_path` against the manifest: it cannot be read, has no
/// course-map block, or its block is not what course_map_markdown() gives. Empty when current.
std::vector<std::string> readme_problems(const course::Manifest& manifest,
                                         const std::string& source_dir,
                                         const std::string& readme_path);

/// Rewrites the course-map block of the README at `readme_path`. Returns "" on success, else why
/// it could not (unreadable, no block, unwritable); the file is then left as it was.
std::string write_readme_course_map(const course::Manifest& manifest, const std::string& source_dir,
                                    const std::string& readme_path);

}  // namespace driver
