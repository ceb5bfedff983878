// What `grader dev check` verifies without a GPU besides the manifest and the file layout: the
// quizzes (they parse, match the manifest, and every answer written in them is pinned by the
// lesson's quiz_test.cpp) and the hints (three tiers per step).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "course/manifest.hpp"

namespace driver {

/// The question ids pinned in the text of a lesson's quiz_test.cpp, with the kind each pin is
/// for ("choice" for QUIZ_CHOICE, "numeric" for QUIZ_NUMERIC; grader/tests/quiz_pins.hpp).
/// Found by their text, one macro per line; lines commented out with // do not count.
std::map<std::string, std::string> pinned_question_ids(const std::string& quiz_test_source);

/// Problems of the ready lessons' quizzes: lessons/<id>/quiz.json missing, malformed (each of
/// its problems), not matching the manifest, a choice or numeric question without a pin in
/// lessons/<id>/quiz_test.cpp, or a pin of no such question. One message each.
std::vector<std::string> quiz_problems(const course::Manifest& manifest,
                                       const std::string& source_dir);

/// Problems of the ready lessons' hints: every step needs exactly three tiers (a nudge, the
/// idea, what to change), none empty, no two the same. One message each.
std::vector<std::string> hint_problems(const course::Manifest& manifest);

}  // namespace driver
