// The answers written in lesson 03_grid_stride's quiz.json, recomputed by simulating the loops the
// questions describe (quiz_pins.hpp explains the pins; grader/tests/quiz_test.cpp fails for a
// choice or numeric question without one, and checks that the quiz parses and matches the
// manifest). The Quiz03Facts tests check what the explanations and the prediction say beyond the
// answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "course/manifest.hpp"
#include "course/quiz.hpp"
#include "quiz_pins.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using quiz_pins::only_choice_starting;

const char* const kLesson = "03_grid_stride";

// How many times a grid-stride loop over n elements with T threads visits each element, for
// start index = t and step `step`. The lesson's loop is step = T; the bug is step = 256.
std::vector<int> visits(long long n, long long threads, long long step) {
  std::vector<int> count(static_cast<std::size_t>(n), 0);
  for (long long t = 0; t < threads; ++t)
    for (long long i = t; i < n; i += step) ++count[static_cast<std::size_t>(i)];
  return count;
}

// Elements thread t updates in the lesson's loop: ceil((n - t) / T) for t < n, by counting.
long long passes(long long n, long long threads, long long t) {
  long long k = 0;
  for (long long i = t; i < n; i += threads) ++k;
  return k;
}

bool every_element_once(const std::vector<int>& v) {
  return std::all_of(v.begin(), v.end(), [](int x) { return x == 1; });
}

// 2147483647 -> "2,147,483,647".
std::string with_commas(long long v) {
  std::string digits = std::to_string(v), out;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
    out += digits[k];
  }
  return out;
}

// ---- the pins ----

// 528 blocks of 256 threads on n = 1,000,000.
QUIZ_NUMERIC("passes-thread-zero") {
  return static_cast<double>(passes(1000000, 528 * 256, 0));
}

// 3 blocks of 256 threads on n = 1000.
QUIZ_NUMERIC("threads-with-two") {
  int two = 0;
  for (long long t = 0; t < 768; ++t) two += passes(1000, 768, t) == 2;
  return two;
}

// The buggy loop steps by blockDim.x (256) on a grid of 3 blocks.
QUIZ_NUMERIC("blockdim-stride-updates") {
  return visits(1000, 3 * 256, 256)[700];
}

// 4 blocks per SM, 132 SMs, 256 threads per block.
QUIZ_NUMERIC("h200-grid-threads") {
  return 4 * 132 * 256;
}

// SAXPY reads x[i] and y[i] and writes y[i], for n = 2^26 floats.
QUIZ_NUMERIC("saxpy-bytes") {
  const long long n = 1LL << 26;
  return static_cast<double>(n * (2 + 1) * static_cast<long long>(sizeof(float)));
}

// The int index of the tutorial loop on n = 2^31 + 17 with 528 x 256 threads.
QUIZ_CHOICE("first-to-break", q) {
  const long long n = (1LL << 31) + 17;
  const std::uint32_t threads = 528u * 256u;
  // Not the start index: the largest one of this grid fits in an int.
  if (static_cast<long long>(threads - 1) >= static_cast<long long>(INT_MAX)) return -1;
  // Not the comparison: int < long long compares as long long.
  static_assert(std::is_same_v<std::common_type_t<int, long long>, long long>);
  // Thread 0's int index, stepped as the loop does (unsigned 32-bit add, converted back to int),
  // turns negative, near -2^31, while still below n (so the loop goes on).
  int i = 0;
  long long steps = 0;
  while (i >= 0 && i < n) {
    i = static_cast<int>(static_cast<std::uint32_t>(i) + threads);
    ++steps;
  }
  const bool wraps_negative = i < 0 && static_cast<long long>(i) < n &&
                              static_cast<long long>(i) < -(1LL << 31) + threads &&
                              steps == static_cast<long long>(INT_MAX) / threads + 1;
  if (!wraps_negative) return -1;
  return only_choice_starting(q, "when i passes " + with_commas(INT_MAX));
}

QUIZ_CHOICE("why-multiple-of-sms", q) {
  // Not correctness: the loop is exact under a grid that is a multiple of no SM count (3 blocks).
  if (!every_element_once(visits(4099, 3 * 256, 3 * 256))) return -1;
  // Not a power of two: the H200's stride is none.
  const long long stride = 4 * 132 * 256;
  if ((stride & (stride - 1)) == 0) return -1;
  // The balance: every thread of the grid does floor(n / T) or ceil(n / T) passes.
  const long long n = 1 << 20;
  std::map<long long, int> histogram;
  for (long long t = 0; t < stride; ++t) ++histogram[passes(n, stride, t)];
  if (histogram.size() > 2 || histogram.begin()->first != n / stride) return -1;
  return only_choice_starting(q, "every SM can get the same number");
}

// ---- facts beyond the answers ----

const Question& question(const std::string& id) {
  static const course::quiz::Quiz quiz = course::quiz::Quiz::load(
      std::string(COURSE_SOURCE_DIR) + "/lessons/" + kLesson + "/quiz.json");
  const auto it = std::find_if(quiz.questions.begin(), quiz.questions.end(),
                               [&](const Question& x) { return x.id == id; });
  if (it == quiz.questions.end()) throw std::runtime_error("no question " + id);
  return *it;
}

TEST(Quiz03Facts, PredictionNamesTheGatedStep) {
  const Question& q = question("predict-grid-stride");
  EXPECT_EQ(q.kind, Kind::prediction);
  EXPECT_EQ(q.measured_lesson, kLesson);
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  const course::Lesson* lesson = m.find(kLesson);
  ASSERT_NE(lesson, nullptr);
  const course::Step* step = lesson->find_step(q.measured_step);
  ASSERT_NE(step, nullptr);
  EXPECT_TRUE(step->gate.has_value()) << "a prediction of a step that is timed";
}

// passes-thread-zero's explanation: every thread of the 528 x 256 grid takes 7 or 8 elements.
TEST(Quiz03Facts, EveryThreadOfTheGridTakesSevenOrEight) {
  const long long threads = 528 * 256, n = 1000000;
  for (long long t = 0; t < threads; ++t) {
    const long long k = passes(n, threads, t);
    ASSERT_TRUE(k == 7 || k == 8) << t;
  }
}

// threads-with-two: the lesson's loop covers every element exactly once on that grid.
TEST(Quiz03Facts, GridStrideLoopCoversEveryElementOnce) {
  EXPECT_TRUE(every_element_once(visits(1000, 768, 768)));
}

// blockdim-stride-updates' explanation: on one block the buggy loop is right, the reason the
// grader uses several grids.
TEST(Quiz03Facts, BlockDimStrideIsRightOnOneBlock) {
  EXPECT_TRUE(every_element_once(visits(1000, 256, 256)));
}

}  // namespace
