// The answers written in lesson 11_scan's quiz.json, recomputed (grader/tests/quiz_pins.hpp explains
// the pins; every choice and numeric question needs one).
#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

constexpr int kThreads = 256, kN = 1000;

// One thread per element, whole blocks: ceil(n / 256).
QUIZ_NUMERIC("blocks-for-n") {
  return (kN + kThreads - 1) / kThreads;
}

// The threads of the last block past n.
QUIZ_NUMERIC("idle-threads") {
  return (kN + kThreads - 1) / kThreads * kThreads - kN;
}

QUIZ_NUMERIC("global-index") {
  return 3 * kThreads + 5;
}

// Read once and written once, 4 bytes a float.
QUIZ_NUMERIC("bytes-moved") {
  return 2.0 * 4 * (1 << 20);
}

// The threads past n exist (whole blocks) and, unchecked, write past the output.
QUIZ_CHOICE("no-bounds-check", q) {
  const int extra = (kN + kThreads - 1) / kThreads * kThreads - kN;
  return only_choice_starting(q, "The " + std::to_string(extra) + " extra threads write past");
}

QUIZ_CHOICE("launch-owner", q) {
  return only_choice_starting(q, "The course's launcher");
}

}  // namespace
