// What the quiz tests of the core (grader/tests/quiz_test.cpp) and of the lessons' quiz kinds
// (lessons/*/tools/*_test.cpp) share: the course's real quizzes, found through the manifest, and
// quizzes written inline.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/quiz.hpp"

namespace test_fixture {

inline course::Manifest manifest() {
  return course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
}

/// The ready lessons of the manifest, in course order (each must have a quiz).
inline std::vector<course::Lesson> ready_lessons() {
  std::vector<course::Lesson> out;
  for (const course::Lesson& l : manifest().lessons)
    if (l.ready()) out.push_back(l);
  return out;
}

/// A planned lesson to add after the course's last, for tests of what a planned lesson refuses:
/// the course may have none left (all 15 are ready).
inline course::Lesson planned_lesson() {
  course::Lesson l;
  l.id = "16_tensor_cores";
  l.stage = 4;
  l.status = "planned";
  l.title = "Tensor cores";
  l.summary = "WMMA and mma.sync, against cuBLAS in TF32.";
  return l;
}

inline std::string quiz_path(const std::string& lesson) {
  return std::string(COURSE_SOURCE_DIR) + "/lessons/" + lesson + "/quiz.json";
}

inline course::quiz::Quiz load_quiz(const std::string& lesson) {
  return course::quiz::Quiz::load(quiz_path(lesson));
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

/// `text` with every run of spaces and line breaks made one space, so that a phrase is found
/// wherever the word-wrap broke it.
inline std::string flat(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

/// The answer a student who knows it would type.
inline std::string right_answer(const course::quiz::Instance& inst) {
  switch (inst.question.kind) {
    case course::quiz::Kind::choice:
      return std::string(1, static_cast<char>('a' + inst.answer_index));
    case course::quiz::Kind::numeric:
    case course::quiz::Kind::generated:
      return course::quiz::format_number(inst.answer);
    case course::quiz::Kind::prediction:
      return "20";
  }
  return "";
}

/// A number that must be rejected: outside the tolerance by a clear margin.
inline std::string wrong_number(const course::quiz::Instance& inst) {
  return course::quiz::format_number(inst.answer + inst.tolerance +
                                     std::max(1.0, std::fabs(inst.answer) * 0.1));
}

/// A quiz file for `lesson` holding `questions` (JSON objects, comma-separated).
inline std::string quiz_text(const std::string& questions, const std::string& lesson) {
  return R"({"schema": 1, "lesson": ")" + lesson + R"(", "questions": [)" + questions + "]}";
}

/// The QuizError message of `text`, or "" when it parses.
inline std::string error_of(const std::string& text) {
  try {
    course::quiz::Quiz::parse(text, "test.json");
  } catch (const course::quiz::QuizError& e) {
    return e.what();
  }
  return "";
}

}  // namespace test_fixture
