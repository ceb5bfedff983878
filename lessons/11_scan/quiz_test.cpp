// The answers written in lesson 11_scan's quiz.json, recomputed (grader/tests/quiz_pins.hpp
// explains the pins; every choice and numeric question needs one).
#include <vector>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

constexpr int kWarp = 32, kIntBytes = 4;

// What lane `lane` of a warp receives from __shfl_up_sync(mask, v, delta), v[l] = lane l's value
// (the Programming Guide's rule: a source below lane 0 leaves the lane's own value).
int shfl_up(const std::vector<int>& v, int lane, int delta) {
  return lane - delta >= 0 ? v[lane - delta] : v[lane];
}

QUIZ_NUMERIC("exclusive-value") {
  const std::vector<int> x = {3, 1, 4, 1, 5};
  int sum = 0;
  for (int i = 0; i < 3; ++i) sum += x[i];
  return sum;
}

QUIZ_CHOICE("shfl-up-lane-zero", q) {
  std::vector<int> v(kWarp);
  for (int l = 0; l < kWarp; ++l) v[l] = 100 + l;
  if (shfl_up(v, 0, 1) != v[0]) return -1;
  return only_choice_starting(q, "Its own v");
}

// The warp scan's steps: distances 1, 2, 4, ... until one lane's window covers the warp.
QUIZ_NUMERIC("warp-scan-steps") {
  int steps = 0;
  for (int covered = 1; covered < kWarp; covered *= 2) ++steps;
  return steps;
}

QUIZ_CHOICE("warp-totals-barrier", q) {
  return only_choice_starting(q, "The warps of a block run independently");
}

QUIZ_NUMERIC("reduce-then-scan-bytes") {
  const int reads = 2, writes = 1;
  return (reads + writes) * kIntBytes;
}

QUIZ_CHOICE("look-back-publish-order", q) {
  return only_choice_starting(q, "Write the aggregate first, then the flag with a release store");
}

QUIZ_CHOICE("ticket-not-block-index", q) {
  return only_choice_starting(q, "Blocks may start in any order");
}

// The exclusive scan of the kept flags at the element's index.
QUIZ_NUMERIC("compact-place") {
  const std::vector<int> x = {4, -1, 6, -3, 2, 9};
  int place = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) place += x[i] > 0 ? 1 : 0;
  return place;
}

}  // namespace
