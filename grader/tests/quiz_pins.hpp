// Quiz pins: every answer written in a quiz file is recomputed by a test. A lesson's
// lessons/NN_name/quiz_test.cpp pins each choice and numeric question of its quiz.json:
//
//   QUIZ_NUMERIC("padded-bank") { return (5 * 33 + 7) % 32; }
//   QUIZ_CHOICE("unpadded-conflict", q) { return only_choice_starting(q, "32-way"); }
//
// A numeric pin returns the answer, computed; a choice pin returns the index of the right choice
// of `q` found by its text. It is called on the question without its answer and with its choices
// in several orders, so it cannot read the answer from the file or return a fixed position. The
// lesson is taken from the file's path, so a pin counts only for the lesson whose folder holds
// it. grader/tests/quiz_test.cpp fails for a choice or numeric question of a ready lesson
// without a pin, for a pin of no such question, and for a pin that disagrees with the file;
// `grader dev check` also finds the macros in the file by their text (keep them one per line).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "course/layout.hpp"
#include "course/quiz.hpp"

namespace quiz_pins {

/// One question's answer, recomputed.
struct Pin {
  std::string lesson;  ///< the lesson whose folder holds the pin (from the file's path)
  std::string id;      ///< the question id
  std::string where;   ///< file:line of the pin
  std::function<double()> numeric;                           ///< numeric questions
  std::function<int(const course::quiz::Question&)> choice;  ///< choice questions
};

/// Every pin registered by the lessons' quiz_test.cpp files.
inline std::vector<Pin>& pins() {
  static std::vector<Pin> all;
  return all;
}

/// "NN_name" for ".../lessons/NN_name/quiz_test.cpp"; "" for a file elsewhere.
inline std::string lesson_of(const std::string& file) {
  const std::string marker = std::string(course::layout::kLessonText) + "/";
  const std::size_t at = file.rfind(marker);
  if (at == std::string::npos) return "";
  const std::size_t start = at + marker.size(), slash = file.find('/', start);
  return slash == std::string::npos ? "" : file.substr(start, slash - start);
}

/// Registers a pin from a static object (the macros below make it).
struct Registrar {
  Registrar(const char* file, int line, const char* id, double (*numeric)()) {
    pins().push_back(
        {lesson_of(file), id, std::string(file) + ":" + std::to_string(line), numeric, nullptr});
  }
  Registrar(const char* file, int line, const char* id,
            int (*choice)(const course::quiz::Question&)) {
    pins().push_back(
        {lesson_of(file), id, std::string(file) + ":" + std::to_string(line), nullptr, choice});
  }
};

/// The index of the one choice of `q` that satisfies `is_it`; -1 when none or several do.
inline int only_choice(const course::quiz::Question& q,
                       const std::function<bool(const std::string&)>& is_it) {
  int found = -1;
  for (int k = 0; k < static_cast<int>(q.choices.size()); ++k) {
    if (!is_it(q.choices[k])) continue;
    if (found >= 0) return -1;
    found = k;
  }
  return found;
}

/// The index of the one choice of `q` that starts with `prefix`; -1 when none or several do.
inline int only_choice_starting(const course::quiz::Question& q, const std::string& prefix) {
  return only_choice(q, [&](const std::string& c) { return c.rfind(prefix, 0) == 0; });
}

}  // namespace quiz_pins

#define QUIZ_PINS_CAT_(a, b) a##b
#define QUIZ_PINS_CAT(a, b) QUIZ_PINS_CAT_(a, b)

/// Pins numeric question `id`: the body returns its answer, computed.
#define QUIZ_NUMERIC(id)                                                    \
  static double QUIZ_PINS_CAT(quiz_pin_numeric_, __LINE__)();               \
  static const ::quiz_pins::Registrar QUIZ_PINS_CAT(quiz_pin_, __LINE__)(   \
      __FILE__, __LINE__, id, &QUIZ_PINS_CAT(quiz_pin_numeric_, __LINE__)); \
  static double QUIZ_PINS_CAT(quiz_pin_numeric_, __LINE__)()

/// Pins choice question `id`: the body gets the question as `question` (no answer, choices in
/// any order) and returns the index of the right choice.
#define QUIZ_CHOICE(id, question)                                                      \
  static int QUIZ_PINS_CAT(quiz_pin_choice_, __LINE__)(const course::quiz::Question&); \
  static const ::quiz_pins::Registrar QUIZ_PINS_CAT(quiz_pin_, __LINE__)(              \
      __FILE__, __LINE__, id, &QUIZ_PINS_CAT(quiz_pin_choice_, __LINE__));             \
  static int QUIZ_PINS_CAT(quiz_pin_choice_, __LINE__)(const course::quiz::Question& question)
