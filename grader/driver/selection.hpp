// What `grader LESSON[.STEP] ... [--all]` asks to grade, resolved against the manifest.
#pragma once

#include <string>
#include <vector>

#include "course/manifest.hpp"

namespace driver {

/// The lesson (and step) `spec` names, as course::resolve() reads it, when the lesson is ready.
/// Every command that works on a lesson's code or steps (grading, hint, watch, reset) uses it, so
/// a planned lesson is the same usage error (exit code 2) everywhere.
/// @param grader_command how the grader was invoked, for the message about planned lessons
/// @throws course::UsageError for an unknown lesson or step, or a lesson that is only planned.
course::Selection select_ready(const course::Manifest& manifest, const std::string& spec,
                               const std::string& grader_command);

/// The lessons and steps to grade, in the order asked, each once: every ready lesson first under
/// `all`, then each of `targets` (a lesson id, number or name, optionally with ".STEP"). A target
/// asked again, or a step of a lesson also asked whole, is graded once: the whole lesson takes
/// the place of the first of its steps asked.
/// @param grader_command how the grader was invoked, for the message about planned lessons
/// @throws course::UsageError for an unknown lesson or step, or a lesson that is only planned.
std::vector<course::Selection> select_lessons(const course::Manifest& manifest,
                                              const std::vector<std::string>& targets, bool all,
                                              const std::string& grader_command);

}  // namespace driver
