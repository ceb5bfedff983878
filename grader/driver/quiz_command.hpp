/// @file quiz_command.hpp
/// @brief `grader quiz LESSON`: asks a lesson's self-check questions (lessons/LESSON/quiz.json,
/// format in course/quiz.hpp) in the terminal, checks and explains each answer, and records the
/// score in the progress file. A non-interactive mode takes the answers from a file or flags.
#pragma once

#include <iostream>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "progress.hpp"

namespace driver {

/// How `grader quiz` runs.
struct QuizCommandOptions {
  /// Non-interactive: a file with one answer per line, in question order. Blank lines and lines
  /// starting with '#' are ignored; "-" skips a question. Exclusive with `answers`.
  std::string answers_file;
  /// Non-interactive: the answers in question order (repeated --answer flags).
  std::vector<std::string> answers;
  /// Draws the parametric questions; 0 = a fresh seed each attempt (printed, so an attempt can
  /// be repeated with --seed).
  unsigned long long seed = 0;
  bool color = false;            ///< ANSI colours in the output
  std::istream* in = &std::cin;  ///< where interactive answers are read from
  /// Where the quiz is written. Error messages go to std::cerr when this is std::cout, and here
  /// otherwise (so that tests see them).
  std::ostream* out = &std::cout;
};

/// Runs the quiz of the lesson named by `lesson_spec` (its id, number or name, as resolve() reads
/// them). Interactive when `options.answers_file` and `options.answers` are both empty: each
/// question is asked and one line read from `options.in` (an unreadable answer is asked again; end
/// of input stops the quiz without recording it). Non-interactive otherwise: exactly one answer per
/// question, an unreadable one counts as wrong. Each answer is checked and explained; at the end
/// the score (predictions excluded) is printed and stored with Progress::set_quiz_score, the
/// estimates with Progress::set_prediction, and the progress file saved.
/// @return 0 when the quiz ran to its end (whatever the score) or was stopped by end of input;
///   2 (course::kExitUsage) for an unknown lesson, a step instead of a lesson, a lesson without a
///   quiz, both answer sources at once, an unreadable answers file or one with the wrong number
///   of answers; 5 (course::kExitInternal) when the quiz file is malformed or does not match the
///   manifest.
int run_quiz_command(const course::Manifest& manifest, const std::string& lesson_spec,
                     const QuizCommandOptions& options, driver::Progress& progress);

/// The part of run_quiz_command after the lesson is found: runs the quiz in `quiz_path` for
/// `lesson`. Same behaviour and return codes (tests use it to point at a quiz file of their own).
int run_quiz_file(const course::Manifest& manifest, const course::Lesson& lesson,
                  const std::string& quiz_path, const QuizCommandOptions& options,
                  driver::Progress& progress);

/// lessons/LESSON/quiz.json under the course's source directory.
std::string quiz_path(const course::Lesson& lesson);

}  // namespace driver
