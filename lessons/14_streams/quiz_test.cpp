// The answers written in lesson 14_streams' quiz.json, recomputed (grader/tests/quiz_pins.hpp
// explains the pins; every choice and numeric question needs one).
#include <algorithm>
#include <cmath>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

QUIZ_NUMERIC("pageable-time") {
  const double bytes = 268435456.0, gbps = 6.3;
  return std::round(bytes / (gbps * 1e9) * 1e3);
}

QUIZ_NUMERIC("overlap-bound") {
  return std::max({5.0, 1.0, 4.8});
}

QUIZ_NUMERIC("serial-fraction") {
  return std::round(100.0 * 5.0 / (5.0 + 1.0 + 4.8));
}

QUIZ_CHOICE("legacy-default-stream", q) {
  return only_choice_starting(q, "Every copy and launch is in one stream");
}

QUIZ_CHOICE("destroy-does-not-wait", q) {
  return only_choice_starting(q, "Possibly a partial result");
}

}  // namespace
