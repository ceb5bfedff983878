// The answers written in lesson 04_matrix_2d's quiz.json, recomputed (quiz_pins.hpp explains the
// pins; grader/tests/quiz_test.cpp fails for a choice or numeric question without one, and checks
// that the quiz parses and matches the manifest). The Quiz04Facts tests check what the
// explanations and the prediction say beyond the answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "course/quiz.hpp"
#include "quiz_pins.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

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

// "rows x cols", e.g. "33 x 31"; false for any other text.
bool parse_shape(const std::string& text, std::int64_t& rows, std::int64_t& cols) {
  const std::size_t x = text.find(" x ");
  if (x == std::string::npos || x == 0 || x + 3 == text.size()) return false;
  const std::string r = text.substr(0, x), c = text.substr(x + 3);
  const auto digits = [](const std::string& s) {
    return std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  };
  if (!digits(r) || !digits(c)) return false;
  rows = std::stoll(r);
  cols = std::stoll(c);
  return true;
}

// ---- the pins ----

// Element (3, 5) of a float matrix with a 512-byte pitch: r * pitch + c * sizeof(float).
QUIZ_NUMERIC("pitched-address") {
  return 3.0 * 512 + 5.0 * sizeof(float);
}

// 1000 floats rounded up to a multiple of 512 bytes, minus the 4000 bytes of data.
QUIZ_NUMERIC("padding-per-row") {
  const std::int64_t width = 1000 * sizeof(float);
  return static_cast<double>(ceil_div(width, 512) * 512 - width);
}

// The byte offset each expression reads for (r, c) = (3, 5), pitch 512, 100 columns; only the
// right one reaches r * pitch + c * 4. A choice this table does not know fails the pin.
QUIZ_CHOICE("pitch-expression", q) {
  const std::int64_t r = 3, c = 5, pitch = 512, cols = 100, f = sizeof(float);
  const std::map<std::string, std::int64_t> offsets = {
      {"in[r * pitch + c]", (r * pitch + c) * f},
      {"in[r * cols + c]", (r * cols + c) * f},
      {"in[r * (pitch * sizeof(float)) + c]", (r * pitch * f + c) * f},
      {"reinterpret_cast<const float*>(reinterpret_cast<const char*>(in) + r * pitch)[c]",
       r * pitch + c * f}};
  for (const std::string& choice : q.choices)
    if (!offsets.count(choice)) return -1;
  return only_choice(q, [&](const std::string& e) { return offsets.at(e) == r * pitch + c * f; });
}

// ceil(cols / 32) x ceil(rows / 8) for 1000 rows, 3000 columns.
QUIZ_NUMERIC("grid-blocks") {
  return static_cast<double>(ceil_div(3000, 32) * ceil_div(1000, 8));
}

// Lanes on consecutive columns are 4 bytes apart (4 sectors); on consecutive rows a pitch apart
// (32 sectors). The right choice is the mapping with the column on threadIdx.x.
QUIZ_CHOICE("row-walk", q) {
  if (sectors(0, 4) != 4 || sectors(0, 512) != 32) return -1;
  return only_choice_starting(q, "c = blockIdx.x * blockDim.x + threadIdx.x;");
}

// 32 lanes one pitch (4096 bytes) apart.
QUIZ_NUMERIC("column-walk-sectors") {
  return static_cast<double>(sectors(0, 4096));
}

// The swapped kernel reaches rows < 32 * ceil(cols / 32) and columns < 8 * ceil(rows / 8). The
// right choice is the one shape ("rows x cols") that leaves something unwritten, or "None" when
// no shape does; a choice that is neither a shape nor "None" fails the pin.
QUIZ_CHOICE("swap-shows", q) {
  const auto misses = [](std::int64_t rows, std::int64_t cols) {
    return rows > 32 * ceil_div(cols, 32) || cols > 8 * ceil_div(rows, 8);
  };
  int shapes = 0, missing = 0;
  std::map<std::string, bool> miss_of;
  for (const std::string& choice : q.choices) {
    if (choice.rfind("None", 0) == 0) continue;
    std::int64_t rows = 0, cols = 0;
    if (!parse_shape(choice, rows, cols)) return -1;
    miss_of[choice] = misses(rows, cols);
    ++shapes;
    missing += miss_of[choice];
  }
  if (shapes == 0) return -1;
  if (missing == 0) return only_choice_starting(q, "None");
  return only_choice(q, [&](const std::string& c) { return miss_of.count(c) && miss_of.at(c); });
}

// ---- facts beyond the answers ----

const Question& question(const std::string& id) {
  static const course::quiz::Quiz quiz =
      course::quiz::Quiz::load(COURSE_SOURCE_DIR "/lessons/04_matrix_2d/quiz.json");
  const auto it = std::find_if(quiz.questions.begin(), quiz.questions.end(),
                               [&](const Question& x) { return x.id == id; });
  if (it == quiz.questions.end()) throw std::runtime_error("no question " + id);
  return *it;
}

// grid-blocks' explanation: 94 x 125 blocks cover 8,000 threads past the matrix.
TEST(Quiz04Facts, GridBlocksCoverEightThousandThreadsPastTheMatrix) {
  EXPECT_EQ(ceil_div(3000, 32) * 32 * ceil_div(1000, 8) * 8 - 3000 * 1000, 8000);
}

TEST(Quiz04Facts, PredictionNamesThePitchedStep) {
  const Question& q = question("predict-pitched");
  EXPECT_EQ(q.kind, Kind::prediction);
  EXPECT_EQ(q.measured_lesson, "04_matrix_2d");
  EXPECT_EQ(q.measured_step, "pitched");
}

}  // namespace
