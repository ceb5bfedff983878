// The answers written in lesson 12_histogram's quiz.json, recomputed (grader/tests/quiz_pins.hpp
// explains the pins; every choice and numeric question needs one).
#include <cmath>
#include <cstdint>
#include <set>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

constexpr int kBins = 256;

// Every interleaving of two threads' load and store of bins[b] += 1 from 5: the first load either
// before or after the other thread's store.
QUIZ_CHOICE("lost-update", q) {
  std::set<int> results;
  for (int order = 0; order < 2; ++order) {
    int bin = 5;
    if (order == 0) {  // both load first
      const int a = bin, b = bin;
      bin = a + 1;
      bin = b + 1;
    } else {  // one after the other
      bin = bin + 1;
      bin = bin + 1;
    }
    results.insert(bin);
  }
  if (results != std::set<int>{6, 7}) return -1;
  return only_choice_starting(q, "6 or 7");
}

QUIZ_NUMERIC("global-atomics-left") {
  const int blocks = 132 * 8;
  return blocks * kBins;
}

QUIZ_NUMERIC("signed-char-bin") {
  const std::uint8_t byte = 0xC8;
  return static_cast<std::int8_t>(byte);
}

QUIZ_CHOICE("block-scope-merge", q) {
  return only_choice_starting(q, "It is atomic only with respect to the threads of the calling");
}

QUIZ_NUMERIC("all-hot-word") {
  return std::round(std::pow(0.9, 4) * 100);
}

// A measurement, not a computation (calibration.md: at 90% equal bytes the plain kernel 72.2% of
// CUB, the per-warp kernel with equal bytes merged 28.2%).
QUIZ_CHOICE("remedy-measured", q) {
  return only_choice_starting(q, "The plain kernel was faster");
}

QUIZ_CHOICE("barrier-before-merge", q) {
  return only_choice_starting(q, "__syncthreads()");
}

QUIZ_NUMERIC("vector-bytes") {
  const int lanes = 32, uint4_bytes = 16;
  return lanes * uint4_bytes;
}

}  // namespace
