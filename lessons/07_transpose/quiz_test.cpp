// The answers written in this lesson's quiz.json, recomputed (quiz_pins.hpp explains the pins;
// grader/tests/quiz_test.cpp fails for a choice or numeric question without one).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course/quiz.hpp"
#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

// Degree of the bank conflict when lane i reads word (base + i * step) of shared memory (32 banks
// of 4 bytes): the most lanes asking for different words of one bank.
int conflict(long long base, long long step) {
  std::map<long long, std::set<long long>> words_per_bank;
  for (long long lane = 0; lane < 32; ++lane) {
    const long long word = base + lane * step;
    words_per_bank[word % 32].insert(word);
  }
  std::size_t worst = 0;
  for (const auto& [bank, words] : words_per_bank) worst = std::max(worst, words.size());
  return static_cast<int>(worst);
}

// 32-byte sectors touched by 32 lanes accessing float element (i * stride).
int sectors(long long stride) {
  std::set<long long> touched;
  for (long long lane = 0; lane < 32; ++lane) touched.insert(lane * stride * 4 / 32);
  return static_cast<int>(touched.size());
}

// A transpose of a rows x cols matrix reads in[r * cols + x] and writes out[x * rows + r]: lanes
// on consecutive x read contiguously and write `rows` floats apart, lanes on consecutive r the
// other way round. Whichever they walk, one side is strided.
QUIZ_CHOICE("one-side-strided", q) {
  const long long rows = 4096, cols = 4096;
  const bool lanes_on_x_strided = sectors(1) == 4 && sectors(rows) == 32;
  const bool lanes_on_r_strided = sectors(cols) == 32 && sectors(1) == 4;
  if (!lanes_on_x_strided || !lanes_on_r_strided) return -1;
  return only_choice_starting(q, "Elements that are neighbours in an input row");
}

// Column c of float tile[32][32]: lane i reads word 32 * i + c, all in bank c.
QUIZ_CHOICE("unpadded-conflict", q) {
  return only_choice_starting(q, std::to_string(conflict(5, 32)) + "-way");
}

// Exactly one declaration has conflict-free rows and columns.
QUIZ_CHOICE("padding-width", q) {
  return only_choice(q, [](const std::string& decl) {
    const auto open = decl.rfind('['), close = decl.rfind(']');
    const long long w = std::stoll(decl.substr(open + 1, close - open - 1));
    return conflict(3 * w, 1) == 1 && conflict(7, w) == 1;
  });
}

// Every thread of a block must reach __syncthreads(): neither returning early nor an extra
// barrier, and a substituted load would read an element that is not its own.
QUIZ_CHOICE("barrier-at-edges", q) {
  return only_choice_starting(q, "Skip that load with an if, but still reach __syncthreads()");
}

// 32 x 32 = 1024 threads is allowed, both geometries use the same tile (so the same shared
// memory and the same bank pattern): what differs is the loads each thread has in flight.
QUIZ_CHOICE("geometry-in-flight", q) {
  const int max_threads_per_block = 1024, tile_floats = 32 * 33;
  const bool allowed = 32 * 32 <= max_threads_per_block;
  const bool same_shared = tile_floats * 4 == 32 * 33 * 4;
  if (!allowed || !same_shared) return -1;
  return only_choice_starting(q, "Each thread can have four independent loads in flight");
}

// Element (5, 7) of float tile[32][33]: word 5 * 33 + 7.
QUIZ_NUMERIC("padded-bank") {
  return static_cast<double>((5 * 33 + 7) % 32);
}

// A 4096 x 4096 float transpose in 40 us: every element read once and written once.
QUIZ_NUMERIC("effective-bandwidth") {
  return 2.0 * 4096 * 4096 * 4 / 40e-6 / 1e9;
}

const course::quiz::Question& question(const std::string& id) {
  static const course::quiz::Quiz quiz =
      course::quiz::Quiz::load(COURSE_SOURCE_DIR "/lessons/07_transpose/quiz.json");
  const auto it = std::find_if(quiz.questions.begin(), quiz.questions.end(),
                               [&](const course::quiz::Question& x) { return x.id == id; });
  if (it == quiz.questions.end()) throw std::runtime_error("no question " + id);
  return *it;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Threads that returned early do not hold up a barrier (PTX ISA, bar/barrier: the count is of
// the CTA's threads that have not exited); what a student sees is elements never written.
TEST(Quiz07Facts, EarlyReturnBeforeTheBarrierShowsAsNeverWrittenNotAHang) {
  const course::quiz::Question& q = question("barrier-at-edges");
  EXPECT_TRUE(contains(q.explain, "never written")) << q.explain;
  EXPECT_TRUE(contains(q.explain, "not exited")) << q.explain;
  EXPECT_FALSE(contains(q.explain, "often a hang")) << q.explain;
}

// The padded transpose's measured fraction is quoted from docs/measured/H200.md's lesson 07
// table, not from another run: the figure in the quiz is the table's.
TEST(Quiz07Facts, PaddedPredictionQuotesTheMeasuredTable) {
  std::ifstream table(COURSE_SOURCE_DIR "/docs/measured/H200.md");
  ASSERT_TRUE(table.good());
  std::string line, percent;
  bool in_lesson_07 = false;
  while (std::getline(table, line)) {
    if (line.rfind("## ", 0) == 0) in_lesson_07 = line.rfind("## Lesson 07", 0) == 0;
    if (in_lesson_07 && line.rfind("| transpose_tiled_padded |", 0) == 0) {
      std::vector<std::string> cells;
      std::stringstream row(line);
      for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
      ASSERT_GE(cells.size(), 4u) << line;
      percent = cells[3];  // "", kernel, GB/s, % of copy rung
      percent.erase(0, percent.find_first_not_of(' '));
      percent.erase(percent.find_last_not_of(' ') + 1);
      break;
    }
  }
  ASSERT_FALSE(percent.empty()) << "no transpose_tiled_padded row under \"## Lesson 07\" in "
                                   "docs/measured/H200.md";
  EXPECT_TRUE(
      contains(question("predict-padded").explain, "measured " + percent + "% of its copy rung"))
      << question("predict-padded").explain;
}

}  // namespace
