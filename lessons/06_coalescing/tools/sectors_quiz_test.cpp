// The `sectors` quiz kind: its questions in every ready lesson's quiz are answered by the
// simulator for the parameters drawn, its keys are validated, and `grader quiz` draws the sector
// model after a wrong answer.
#include "sectors_quiz.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "course/extensions.hpp"
#include "progress.hpp"
#include "quiz_command.hpp"
#include "quiz_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using coalescing::sectors_quiz::Quantity;
using coalescing::sectors_quiz::SectorsQuestion;
using course::quiz::check;
using course::quiz::format_number;
using course::quiz::Instance;
using course::quiz::instantiate;
using course::quiz::Question;
using course::quiz::Quiz;
using test_fixture::contains;
using test_fixture::error_of;
using test_fixture::wrong_number;

const SectorsQuestion* sectors(const Question& q) {
  return q.kind_name == "sectors" ? dynamic_cast<const SectorsQuestion*>(q.generator.get())
                                  : nullptr;
}

std::string quiz_text(const std::string& questions) {
  return test_fixture::quiz_text(questions, test_fixture::ready_lessons().front().id);
}

template <typename T>
bool listed(const std::vector<T>& values, T v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// One draw of a sectors question: the answer is the simulator's for the parameters drawn, which
// come from the question's lists; the explanation names them; the same seed draws the same.
void check_draw(const Question& q, const SectorsQuestion& s, unsigned long long seed) {
  const Instance inst = instantiate(q, seed);
  const coalescing::sim::Access a = s.access_for(inst.draw_seed);
  ASSERT_TRUE(listed(s.params.stride, a.stride));
  ASSERT_TRUE(listed(s.params.offset, a.offset));
  ASSERT_TRUE(listed(s.params.width, a.element_bytes));
  ASSERT_TRUE(listed(s.params.lanes, a.lanes));
  const coalescing::sim::Result r = coalescing::sim::simulate(a);
  double expected = 0;
  switch (s.ask) {
    case Quantity::sectors:
      expected = static_cast<double>(r.sectors.size());
      break;
    case Quantity::lines:
      expected = static_cast<double>(r.lines.size());
      break;
    case Quantity::bytes_moved:
      expected = static_cast<double>(r.bytes_moved);
      break;
    case Quantity::bytes_used:
      expected = static_cast<double>(r.bytes_used);
      break;
    case Quantity::efficiency_percent:
      expected = 100.0 * static_cast<double>(r.bytes_used) / r.bytes_moved;
      break;
  }
  ASSERT_DOUBLE_EQ(inst.answer, expected) << "seed " << seed;
  EXPECT_FALSE(contains(inst.prompt, "{")) << inst.prompt;
  EXPECT_FALSE(contains(inst.explain, "{")) << inst.explain;
  const auto right = check(inst, format_number(expected));
  ASSERT_TRUE(right.correct) << "seed " << seed << ": " << right.explanation;
  if (s.ask == Quantity::efficiency_percent) {  // as a student rounds it
    EXPECT_TRUE(check(inst, coalescing::sim::percent(r.efficiency)).correct);
  }
  const auto wrong = check(inst, wrong_number(inst));
  ASSERT_FALSE(wrong.correct) << "seed " << seed;
  for (const auto* v : {&right, &wrong}) {
    EXPECT_TRUE(contains(v->explanation, "stride " + std::to_string(a.stride)));
    EXPECT_TRUE(contains(v->explanation, "offset " + std::to_string(a.offset)));
    EXPECT_TRUE(contains(v->explanation, std::to_string(a.element_bytes) + "-byte"));
    EXPECT_TRUE(contains(v->explanation, std::to_string(a.lanes) + " lanes"));
    EXPECT_TRUE(contains(v->explanation, inst.explain));
  }
  EXPECT_TRUE(contains(wrong.explanation, "The answer is"));
  const Instance again = instantiate(q, seed);
  EXPECT_EQ(again.prompt, inst.prompt);
  EXPECT_EQ(again.answer, inst.answer);
}

TEST(SectorsQuiz, AnswersAreTheSimulatorsInEveryReadyLessonsQuiz) {
  int questions = 0;
  for (const course::Lesson& lesson : test_fixture::ready_lessons())
    for (const Question& q : test_fixture::load_quiz(lesson.id).questions) {
      const SectorsQuestion* s = sectors(q);
      if (!s) continue;
      SCOPED_TRACE(lesson.id + " " + q.id);
      ++questions;
      std::set<long long> strides, offsets;
      std::set<int> widths;
      std::set<std::string> prompts;
      for (unsigned long long seed = 1; seed <= 400; ++seed) {
        check_draw(q, *s, seed);
        if (::testing::Test::HasFatalFailure()) return;
        const coalescing::sim::Access a = s->access_for(instantiate(q, seed).draw_seed);
        strides.insert(a.stride);
        offsets.insert(a.offset);
        widths.insert(a.element_bytes);
        prompts.insert(instantiate(q, seed).prompt);
      }
      EXPECT_EQ(strides.size(), s->params.stride.size()) << "every stride drawn at least once";
      EXPECT_EQ(offsets.size(), s->params.offset.size());
      EXPECT_EQ(widths.size(), s->params.width.size());
      EXPECT_GT(prompts.size(), 1u) << "attempts must differ";
    }
  EXPECT_GE(questions, 3);
}

TEST(SectorsQuiz, IsRegisteredOnce) {
  const course::ext::QuizKindInfo* kind = course::ext::find_quiz_kind("sectors");
  ASSERT_TRUE(kind);
  EXPECT_EQ(kind->lesson, "06_coalescing");
}

TEST(SectorsQuiz, ErrorsNameTheQuestionAndTheProblem) {
  struct Case {
    std::string text, expect;
  };
  const std::vector<Case> cases = {
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"stride": [1, 2]}, "answer": 4, "explain": "E"})"),
       "has no \"answer\": the simulator computes it"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr} {type}", "ask": "sectors",
                     "params": {"width": [4, 3]}, "explain": "E"})"),
       "element width must be 1, 2, 4, 8 or 16 bytes (got 3)"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "speed",
                     "params": {}, "explain": "E"})"),
       "\"ask\" must be sectors, lines, bytes_moved, bytes_used or efficiency_percent"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "a float load", "ask": "sectors",
                     "params": {"stride": [1, 2]}, "explain": "E"})"),
       "stride varies but the prompt never shows it"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"width": [4, 8]}, "explain": "E"})"),
       "width varies but the prompt never shows it"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr} {sride}", "ask": "sectors",
                     "params": {}, "explain": "E"})"),
       "unknown placeholder {sride}"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "struct { float x; }", "ask": "lines",
                     "params": {}, "explain": "E"})"),
       "write {{ for a literal brace"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"stride": [1, 1]}, "explain": "E"})"),
       "question 1 (s): params.stride lists a value twice"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"stride": [1.5]}, "explain": "E"})"),
       "params.stride must hold integers"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"size": [1]}, "explain": "E"})"),
       "unknown parameter \"size\""},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr} {lanes}", "ask": "sectors",
                     "params": {"lanes": [16, 33]}, "explain": "E"})"),
       "lanes must be between 1 and 32"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {}, "tolerence": 1, "explain": "E"})"),
       "unknown key \"tolerence\" in a sectors question"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(c.text);
    EXPECT_TRUE(contains(e, c.expect)) << "expected \"" << c.expect << "\" in:\n"
                                       << e << "\nfor: " << c.text;
  }
}

TEST(SectorsQuiz, LiteralBracesAndPlaceholders) {
  const Quiz q = Quiz::parse(quiz_text(R"({"id": "s", "kind": "sectors", "ask": "bytes_used",
                    "prompt": "struct {{ float v[{stride}]; }} p[32]; lane i reads {expr} of {type}",
                    "params": {"stride": [3], "offset": [2]}, "explain": "{distance} B apart"})"),
                             "test.json");
  const Instance inst = instantiate(q.questions[0], 7);
  EXPECT_EQ(inst.prompt, "struct { float v[3]; } p[32]; lane i reads a[2 + i*3] of float");
  EXPECT_EQ(inst.explain, "12 B apart");
  EXPECT_EQ(inst.answer, 128);
  EXPECT_EQ(inst.unit, "B");
  EXPECT_EQ(inst.answer_form, "(a number of bytes)");
}

// A wrong answer to a sectors question is followed by the simulator's drawing of the load.
TEST(SectorsQuiz, QuizCommandDrawsTheLoadAfterAWrongAnswer) {
  const fs::path dir = fs::temp_directory_path() / ("grader-sectors-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "quiz.json").string();
  std::ofstream(path) << quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}",
      "ask": "sectors", "params": {"stride": [8]}, "explain": "E"})");
  const course::Manifest m = test_fixture::manifest();
  std::ostringstream out;
  driver::QuizCommandOptions options;
  options.out = &out;
  options.seed = 1;
  options.answers = {"5"};
  driver::Progress progress((dir / "progress.json").string());
  ASSERT_EQ(driver::run_quiz_file(m, *m.find(test_fixture::ready_lessons().front().id), path,
                                  options, progress),
            0);
  EXPECT_TRUE(contains(out.str(), "(a number of sectors)")) << out.str();
  EXPECT_TRUE(contains(out.str(), "The answer is 32 sectors, not 5")) << out.str();
  EXPECT_TRUE(contains(out.str(), "32 sectors, 8 lines per warp request")) << out.str();
  fs::remove_all(dir);
}

}  // namespace
