/// @file manifest_edit.hpp
/// @brief Edits of the manifest's text that keep its hand-made layout: `grader dev new` adds a
/// lesson's entry without reformatting the rest of lessons/course.json.
#pragma once

#include <string>

namespace course {

/// Puts `entry` (the JSON text of one lesson object, indented as the file's entries are) into the
/// "lessons" array of the manifest text `manifest`: in place of the entry with the same id when
/// that one is "planned", else before the first lesson with a larger number, else last.
/// @param manifest the whole text of lessons/course.json
/// @param entry    one lesson object; its "id" decides where it goes
/// @return the new text, which parses as a manifest (checked)
/// @throws ManifestError when the text or the entry is not valid JSON, when a lesson with that id
///   is already "ready", or when another lesson has the same number.
std::string put_lesson_entry(const std::string& manifest, const std::string& entry);

}  // namespace course
