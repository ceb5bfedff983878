// Lesson 04_matrix_2d's quiz: every question id is pinned here (a question added to or removed
// from quiz.json without this file fails), every numeric answer is recomputed, and every choice
// answer is checked against a computed fact. Built into the grader's CPU unit tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/quiz.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using course::quiz::Quiz;

Quiz quiz() {
  return Quiz::load(COURSE_SOURCE_DIR "/lessons/04_matrix_2d/quiz.json");
}

const Question& find(const Quiz& q, const std::string& id) {
  for (const Question& x : q.questions)
    if (x.id == id) return x;
  throw std::runtime_error("no question " + id);
}

// Distinct 32-byte sectors of one warp request, lane i at byte address base + i * step (4-byte
// elements).
std::size_t sectors(std::uint64_t base, std::uint64_t step) {
  std::set<std::uint64_t> s;
  for (std::uint64_t lane = 0; lane < 32; ++lane) {
    const std::uint64_t a = base + lane * step;
    s.insert(a / 32);
    s.insert((a + 3) / 32);
  }
  return s.size();
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// The pin list: exactly these questions, in this order.
TEST(Quiz04, EveryQuestionIsPinned) {
  const Quiz q = quiz();
  const std::vector<std::string> pinned = {
      "pitched-address", "padding-per-row",     "pitch-expression", "grid-blocks",
      "row-walk",        "column-walk-sectors", "swap-shows",       "predict-pitched"};
  std::vector<std::string> ids;
  for (const Question& x : q.questions) ids.push_back(x.id);
  EXPECT_EQ(ids, pinned);
  EXPECT_EQ(q.lesson, "04_matrix_2d");
  EXPECT_GE(q.questions.size(), 5u);
  EXPECT_LE(q.questions.size(), 8u);
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  EXPECT_TRUE(course::quiz::problems(q, m).empty());
}

TEST(Quiz04, NumericAnswersAreRecomputed) {
  const std::map<std::string, std::function<double()>> computed = {
      // Element (3, 5) of a float matrix with a 512-byte pitch: r * pitch + c * sizeof(float).
      {"pitched-address", [] { return 3.0 * 512 + 5.0 * sizeof(float); }},
      // 1000 floats rounded up to a multiple of 512 bytes, minus the 4000 bytes of data.
      {"padding-per-row",
       [] {
         const std::int64_t width = 1000 * sizeof(float);
         return static_cast<double>(ceil_div(width, 512) * 512 - width);
       }},
      // ceil(cols / 32) x ceil(rows / 8) for 1000 rows, 3000 columns.
      {"grid-blocks", [] { return static_cast<double>(ceil_div(3000, 32) * ceil_div(1000, 8)); }},
      // 32 lanes one pitch (4096 bytes) apart.
      {"column-walk-sectors", [] { return static_cast<double>(sectors(0, 4096)); }},
  };
  const Quiz q = quiz();
  int checked = 0;
  for (const Question& x : q.questions) {
    if (x.kind != Kind::numeric) continue;
    SCOPED_TRACE(x.id);
    ASSERT_TRUE(computed.count(x.id)) << "numeric question without a recomputation here";
    EXPECT_LE(std::fabs(x.answer - computed.at(x.id)()), x.tolerance + 1e-9);
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(computed.size()));
  // The explanation's side facts: 94 x 125 blocks cover 8,000 threads past the matrix.
  EXPECT_EQ(ceil_div(3000, 32) * 32 * ceil_div(1000, 8) * 8 - 3000 * 1000, 8000);
}

// pitch-expression: the byte offset each choice reads for (r, c) = (3, 5), pitch 512, 100 columns
// (the choices in the file's order); only the right one reaches r * pitch + c * 4.
TEST(Quiz04, PitchExpressionIsTheOnlyRightAddress) {
  const Quiz q = quiz();
  const Question& x = find(q, "pitch-expression");
  const std::int64_t r = 3, c = 5, pitch = 512, cols = 100, f = sizeof(float);
  const std::vector<std::int64_t> offsets = {
      (r * pitch + c) * f,      // in[r * pitch + c]
      (r * cols + c) * f,       // in[r * cols + c]
      (r * pitch * f + c) * f,  // in[r * (pitch * sizeof(float)) + c]
      r * pitch + c * f};       // through a char pointer
  ASSERT_EQ(x.choices.size(), offsets.size());
  EXPECT_EQ(x.choices[0], "in[r * pitch + c]");
  EXPECT_EQ(x.choices[1], "in[r * cols + c]");
  EXPECT_EQ(x.choices[2], "in[r * (pitch * sizeof(float)) + c]");
  for (std::size_t k = 0; k < offsets.size(); ++k)
    EXPECT_EQ(offsets[k] == r * pitch + c * f, static_cast<int>(k) == x.answer_index) << k;
}

// row-walk: lanes on consecutive columns are 4 bytes apart (4 sectors); on consecutive rows a
// pitch apart (32 sectors). The right choice is the mapping with the column on threadIdx.x.
TEST(Quiz04, RowWalkIsTheFourSectorMapping) {
  const Quiz q = quiz();
  const Question& x = find(q, "row-walk");
  EXPECT_EQ(sectors(0, 4), 4u);
  EXPECT_EQ(sectors(0, 512), 32u);
  const std::string& right = x.choices[x.answer_index];
  EXPECT_EQ(right.rfind("c = blockIdx.x * blockDim.x + threadIdx.x;", 0), 0u) << right;
}

// swap-shows: the swapped kernel reaches rows < 32 * ceil(cols / 32) and columns
// < 8 * ceil(rows / 8); exactly the right choice leaves something unwritten.
TEST(Quiz04, SwapShowsOnlyOnTheRightShape) {
  const Quiz q = quiz();
  const Question& x = find(q, "swap-shows");
  const auto misses = [](std::int64_t rows, std::int64_t cols) {
    return rows > 32 * ceil_div(cols, 32) || cols > 8 * ceil_div(rows, 8);
  };
  const std::vector<std::pair<std::int64_t, std::int64_t>> shapes = {
      {64, 64}, {1024, 1024}, {33, 31}};
  ASSERT_EQ(x.choices.size(), shapes.size() + 1);
  int wrong_shapes = 0;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    EXPECT_EQ(x.choices[k],
              std::to_string(shapes[k].first) + " x " + std::to_string(shapes[k].second));
    const bool miss = misses(shapes[k].first, shapes[k].second);
    wrong_shapes += miss;
    EXPECT_EQ(miss, static_cast<int>(k) == x.answer_index) << x.choices[k];
  }
  EXPECT_EQ(wrong_shapes, 1);  // so "None" is not right either
}

TEST(Quiz04, PredictionNamesTheGatedStep) {
  const Quiz q = quiz();
  const Question& x = find(q, "predict-pitched");
  EXPECT_EQ(x.kind, Kind::prediction);
  EXPECT_EQ(x.measured_lesson, "04_matrix_2d");
  EXPECT_EQ(x.measured_step, "pitched");
}

}  // namespace
