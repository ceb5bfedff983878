// CPU checks of lesson 03_grid_stride's quiz, compiled into grader_unit_tests: the quiz parses
// and matches the manifest, every numeric answer is recomputed here by simulating the loops the
// questions describe, every choice answer is checked against computed facts, and every question
// id is pinned by one test below (a question added without a check fails EveryQuestionIsPinned).
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "course/manifest.hpp"
#include "course/quiz.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using course::quiz::Quiz;

const char* const kLesson = "03_grid_stride";

// Every question and the test that checks it.
const std::set<std::string> kPinned = {
    "predict-grid-stride",      // PredictionNamesTheGatedStep
    "passes-thread-zero",       // PassesOfThreadZero
    "threads-with-two",         // ThreadsWithTwoElements
    "blockdim-stride-updates",  // BlockDimStrideUpdates
    "h200-grid-threads",        // H200GridThreads
    "saxpy-bytes",              // SaxpyBytes
    "first-to-break",           // FirstToBreak
    "why-multiple-of-sms",      // WhyMultipleOfSms
};

Quiz load() {
  return Quiz::load(std::string(COURSE_SOURCE_DIR) + "/lessons/" + kLesson + "/quiz.json");
}

// The question `id` of `q` (a reference into `q`: keep the Quiz alive).
const Question& find(const Quiz& q, const std::string& id) {
  for (const Question& x : q.questions)
    if (x.id == id) return x;
  throw std::runtime_error("no question " + id);
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// How many times a grid-stride loop over n elements with T threads visits each element, for
// start index = t and step `step(t)`. The lesson's loop is step = T; the bug is step = 256.
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

TEST(Quiz03GridStride, ParsesAndMatchesTheManifest) {
  const Quiz q = load();
  EXPECT_EQ(q.lesson, kLesson);
  EXPECT_GE(q.questions.size(), 5u);
  EXPECT_LE(q.questions.size(), 8u);
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  EXPECT_TRUE(course::quiz::problems(q, m).empty());
  std::set<Kind> kinds;
  for (const Question& x : q.questions) kinds.insert(x.kind);
  EXPECT_GE(kinds.size(), 3u) << "a mix of kinds";
}

TEST(Quiz03GridStride, EveryQuestionIsPinned) {
  std::set<std::string> ids;
  for (const Question& x : load().questions) ids.insert(x.id);
  EXPECT_EQ(ids, kPinned);
}

// The right choices are not all in one position.
TEST(Quiz03GridStride, ChoiceAnswersAreSpread) {
  std::set<int> positions;
  for (const Question& x : load().questions)
    if (x.kind == Kind::choice) positions.insert(x.answer_index);
  EXPECT_GE(positions.size(), 2u);
}

TEST(Quiz03GridStride, PredictionNamesTheGatedStep) {
  const Quiz quiz = load();
  const Question& q = find(quiz, "predict-grid-stride");
  EXPECT_EQ(q.kind, Kind::prediction);
  EXPECT_EQ(q.measured_lesson, kLesson);
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  const course::Lesson* lesson = m.find(kLesson);
  ASSERT_NE(lesson, nullptr);
  const course::Step* step = lesson->find_step(q.measured_step);
  ASSERT_NE(step, nullptr);
  EXPECT_TRUE(step->gate.has_value()) << "a prediction of a step that is timed";
}

TEST(Quiz03GridStride, PassesOfThreadZero) {
  const Quiz quiz = load();
  const Question& q = find(quiz, "passes-thread-zero");
  const long long threads = 528 * 256, n = 1000000;
  EXPECT_EQ(q.answer, passes(n, threads, 0));
  // The explanation's claim: every thread takes 7 or 8.
  for (long long t = 0; t < threads; ++t) {
    const long long k = passes(n, threads, t);
    ASSERT_TRUE(k == 7 || k == 8) << t;
  }
}

TEST(Quiz03GridStride, ThreadsWithTwoElements) {
  const Quiz quiz = load();
  const Question& q = find(quiz, "threads-with-two");
  int two = 0;
  for (long long t = 0; t < 768; ++t) two += passes(1000, 768, t) == 2;
  EXPECT_EQ(q.answer, two);
  // And the loop covers every element exactly once on this grid.
  for (int v : visits(1000, 768, 768)) ASSERT_EQ(v, 1);
}

TEST(Quiz03GridStride, BlockDimStrideUpdates) {
  const Quiz quiz = load();
  const Question& q = find(quiz, "blockdim-stride-updates");
  EXPECT_EQ(q.answer, visits(1000, 3 * 256, 256)[700]);
  // One block is right with the same bug: the reason the grader uses several grids.
  for (int v : visits(1000, 256, 256)) ASSERT_EQ(v, 1);
}

TEST(Quiz03GridStride, H200GridThreads) {
  const Quiz quiz = load();
  EXPECT_EQ(find(quiz, "h200-grid-threads").answer, 4 * 132 * 256);
}

TEST(Quiz03GridStride, SaxpyBytes) {
  const long long n = 1LL << 26;
  const Quiz quiz = load();
  EXPECT_EQ(find(quiz, "saxpy-bytes").answer,
            static_cast<double>(n * (2 + 1) * static_cast<long long>(sizeof(float))));
}

TEST(Quiz03GridStride, FirstToBreak) {
  const Quiz quiz = load();
  const Question& q = find(quiz, "first-to-break");
  ASSERT_EQ(q.kind, Kind::choice);
  const long long n = (1LL << 31) + 17;
  const std::uint32_t threads = 528u * 256u;
  // a) false: the largest start index of this grid fits in an int.
  EXPECT_LT(static_cast<long long>(threads - 1), static_cast<long long>(INT_MAX));
  // b) false: int < long long compares as long long.
  static_assert(std::is_same_v<std::common_type_t<int, long long>, long long>);
  // c) true: thread 0's int index, stepped as the loop does (unsigned 32-bit add, converted back
  // to int), turns negative, near -2^31, while still below n (so the loop goes on).
  int i = 0;
  long long steps = 0;
  while (i >= 0 && i < n) {
    i = static_cast<int>(static_cast<std::uint32_t>(i) + threads);
    ++steps;
  }
  EXPECT_LT(i, 0);
  EXPECT_LT(static_cast<long long>(i), n);
  EXPECT_LT(static_cast<long long>(i), -(1LL << 31) + threads);
  EXPECT_EQ(steps, (static_cast<long long>(INT_MAX) / threads) + 1);
  EXPECT_TRUE(starts_with(q.choices[q.answer_index], "when i passes 2,147,483,647"));
  EXPECT_EQ(std::to_string(INT_MAX), "2147483647");
}

TEST(Quiz03GridStride, WhyMultipleOfSms) {
  const Quiz quiz = load();
  const Question& q = find(quiz, "why-multiple-of-sms");
  ASSERT_EQ(q.kind, Kind::choice);
  // b) false: the loop is exact under a grid that is a multiple of no SM count (3 blocks).
  for (int v : visits(4099, 3 * 256, 3 * 256)) ASSERT_EQ(v, 1);
  // c) false: the H200's stride is not a power of two.
  const long long stride = 4 * 132 * 256;
  EXPECT_NE(stride & (stride - 1), 0);
  // d) the balance: every thread of the grid does floor(n / T) or ceil(n / T) passes.
  const long long n = 1 << 20;
  std::map<long long, int> histogram;
  for (long long t = 0; t < stride; ++t) ++histogram[passes(n, stride, t)];
  EXPECT_LE(histogram.size(), 2u);
  EXPECT_EQ(histogram.begin()->first, n / stride);
  EXPECT_TRUE(starts_with(q.choices[q.answer_index], "every SM can get the same number"));
}

}  // namespace
