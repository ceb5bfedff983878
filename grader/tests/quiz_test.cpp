// Self-check quizzes: the real quiz files parse and every answer in them is right (numbers
// recomputed here, sector answers from the simulator), the format's validation, and
// `grader quiz` run non-interactively and interactively against a temporary progress file.
#include "course/quiz.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/report.hpp"
#include "course/sim.hpp"
#include "progress.hpp"
#include "quiz_command.hpp"

namespace {

namespace fs = std::filesystem;
using course::quiz::check;
using course::quiz::format_number;
using course::quiz::Instance;
using course::quiz::instantiate;
using course::quiz::Kind;
using course::quiz::parse_number;
using course::quiz::Quantity;
using course::quiz::Question;
using course::quiz::Quiz;
using course::quiz::QuizError;

const char* const kLessonsWithQuiz[] = {"06_coalescing", "07_transpose"};

course::Manifest manifest() {
  return course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
}

Quiz load(const std::string& lesson) {
  return Quiz::load(std::string(COURSE_SOURCE_DIR) + "/lessons/" + lesson + "/quiz.json");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The command's output with every run of spaces and line breaks made one space, so that a
// phrase is found wherever the word-wrap broke it.
std::string flat(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

// The answer a student who knows it would type.
std::string right_answer(const Instance& inst) {
  switch (inst.question.kind) {
    case Kind::choice:
      return std::string(1, static_cast<char>('a' + inst.question.answer_index));
    case Kind::numeric:
    case Kind::sectors:
      return format_number(inst.answer);
    case Kind::prediction:
      return "20";
  }
  return "";
}

// A number that must be rejected: outside the tolerance by a clear margin.
std::string wrong_number(const Instance& inst) {
  return format_number(inst.answer + inst.tolerance + std::max(1.0, std::fabs(inst.answer) * 0.1));
}

// ---- the real quiz files ----------------------------------------------------------------------

TEST(QuizFiles, ParseAndMatchTheManifest) {
  const course::Manifest m = manifest();
  for (const char* lesson : kLessonsWithQuiz) {
    SCOPED_TRACE(lesson);
    const Quiz q = load(lesson);
    EXPECT_EQ(q.lesson, lesson);
    EXPECT_GE(q.questions.size(), 6u);
    EXPECT_TRUE(course::quiz::problems(q, m).empty());
    std::set<Kind> kinds;
    for (const Question& question : q.questions) kinds.insert(question.kind);
    EXPECT_GE(kinds.size(), 3u) << "a mix of kinds";
  }
  auto count = [](const Quiz& q, Kind k) {
    return std::count_if(q.questions.begin(), q.questions.end(),
                         [&](const Question& x) { return x.kind == k; });
  };
  EXPECT_GE(count(load("06_coalescing"), Kind::sectors), 2);
  const Quiz transpose = load("07_transpose");
  EXPECT_GE(count(transpose, Kind::sectors), 1);
  std::set<std::string> predicted;
  for (const Question& question : transpose.questions)
    if (question.kind == Kind::prediction)
      predicted.insert(question.measured_lesson + "." + question.measured_step);
  EXPECT_TRUE(predicted.count("07_transpose.naive"));
  EXPECT_TRUE(predicted.count("07_transpose.tiled_padded"));
}

TEST(QuizFiles, ChoiceAnswersAreAcceptedAndTheOthersRejected) {
  int checked = 0;
  for (const char* lesson : kLessonsWithQuiz)
    for (const Question& q : load(lesson).questions) {
      if (q.kind != Kind::choice) continue;
      SCOPED_TRACE(std::string(lesson) + " " + q.id);
      const Instance inst = instantiate(q, 1);
      const char right = static_cast<char>('a' + q.answer_index);
      for (const std::string& a : {std::string(1, right), std::string(1, char(right - 32)),
                                   std::string(1, right) + ")", "(" + std::string(1, right) + ")",
                                   "  " + std::string(1, right) + " ", q.choices[q.answer_index]}) {
        const auto v = check(inst, a);
        EXPECT_TRUE(v.understood && v.correct && v.scored) << a;
        EXPECT_TRUE(contains(v.explanation, "Right")) << v.explanation;
        EXPECT_TRUE(contains(v.explanation, q.explain));
      }
      for (std::size_t k = 0; k < q.choices.size(); ++k) {
        if (static_cast<int>(k) == q.answer_index) continue;
        const auto v = check(inst, std::string(1, static_cast<char>('a' + k)));
        EXPECT_TRUE(v.understood);
        EXPECT_FALSE(v.correct);
        EXPECT_TRUE(contains(v.explanation, q.choices[q.answer_index])) << v.explanation;
      }
      const auto beyond = check(inst, std::string(1, static_cast<char>('a' + q.choices.size())));
      EXPECT_FALSE(beyond.understood || beyond.correct);
      EXPECT_FALSE(check(inst, "maybe").understood);
      EXPECT_TRUE(check(inst, "-").skipped);
      EXPECT_FALSE(check(inst, "-").correct);
      ++checked;
    }
  EXPECT_GE(checked, 8);
}

// Choice questions whose right answer is a computable fact: computed here.
TEST(QuizFiles, ChoiceFactsAreComputed) {
  // Degree of the bank conflict when lane i reads word (base + i * step): the most lanes
  // asking for different words of one bank.
  auto conflict = [](long long base, long long step) {
    std::map<long long, std::set<long long>> words_per_bank;
    for (long long lane = 0; lane < 32; ++lane) {
      const long long word = base + lane * step;
      words_per_bank[word % 32].insert(word);
    }
    std::size_t worst = 0;
    for (const auto& [bank, words] : words_per_bank) worst = std::max(worst, words.size());
    return static_cast<int>(worst);
  };
  const Quiz q07 = load("07_transpose");
  const Quiz q06 = load("06_coalescing");
  auto find = [](const Quiz& q, const std::string& id) -> const Question& {
    for (const Question& x : q.questions)
      if (x.id == id) return x;
    throw std::runtime_error("no question " + id);
  };

  // Column c of float tile[32][32]: word 32 * r + c.
  const Question& unpadded = find(q07, "unpadded-conflict");
  EXPECT_EQ(conflict(5, 32), 32);
  EXPECT_TRUE(contains(unpadded.choices[unpadded.answer_index], "32-way"));

  // Exactly the right declaration has conflict-free rows and columns.
  const Question& padding = find(q07, "padding-width");
  for (std::size_t k = 0; k < padding.choices.size(); ++k) {
    const std::string& decl = padding.choices[k];
    const auto open = decl.rfind('['), close = decl.rfind(']');
    const long long w = std::stoll(decl.substr(open + 1, close - open - 1));
    const bool free = conflict(3 * w, 1) == 1 && conflict(7, w) == 1;
    EXPECT_EQ(free, static_cast<int>(k) == padding.answer_index) << decl;
  }

  // Threads on rows: lanes 4096 floats apart.
  const Question& swap = find(q06, "row-column-swap");
  course::sim::Access a;
  a.stride = 4096;
  const auto sectors = course::sim::simulate(a).sectors.size();
  EXPECT_EQ(swap.choices[swap.answer_index].rfind(std::to_string(sectors) + " sectors", 0), 0u);

  // The plateau: every stride from 8 to 32 touches 32 sectors.
  for (long long s = 8; s <= 32; ++s) {
    a.stride = s;
    EXPECT_EQ(course::sim::simulate(a).sectors.size(), 32u) << s;
  }
  const Question& plateau = find(q06, "stride-plateau");
  EXPECT_EQ(plateau.choices[plateau.answer_index].rfind("It stays at 32", 0), 0u);

  // The smallest unit: one lane alone moves one sector.
  a.stride = 1;
  a.lanes = 1;
  const Question& unit = find(q06, "unit-of-transfer");
  EXPECT_EQ(course::sim::simulate(a).bytes_moved, 32u);
  EXPECT_EQ(unit.choices[unit.answer_index].rfind("32 bytes", 0), 0u);

  // float4 against float: the same sectors, all used (so not "fewer sectors"); 4x the bytes per
  // instruction.
  course::sim::Access f1, f4;
  f4.element_bytes = 16;
  const auto r1 = course::sim::simulate(f1), r4 = course::sim::simulate(f4);
  EXPECT_EQ(4 * r1.sectors.size(), r4.sectors.size());
  EXPECT_EQ(r1.bytes_moved, r1.bytes_used);
  EXPECT_EQ(r4.bytes_moved, r4.bytes_used);
  EXPECT_EQ(r4.bytes_used, 4 * r1.bytes_used);
  const Question& why = find(q06, "float4-why");
  EXPECT_EQ(why.choices[why.answer_index].rfind("Each load instruction moves four times", 0), 0u);
}

// An early return before __syncthreads() does not hold up the barrier (it waits for non-exited
// threads only, PTX ISA "bar, barrier"); what a student sees is output never written. The rule
// (the whole block reaches the barrier) stays the right answer.
TEST(QuizFacts, EarlyReturnBeforeTheBarrierShowsAsNeverWrittenNotAHang) {
  const Quiz q = load("07_transpose");
  const auto it = std::find_if(q.questions.begin(), q.questions.end(),
                               [](const Question& x) { return x.id == "barrier-at-edges"; });
  ASSERT_NE(it, q.questions.end());
  EXPECT_EQ(it->choices[it->answer_index].rfind("Skip that load with an if, but still reach", 0),
            0u);
  EXPECT_TRUE(contains(it->explain, "never written")) << it->explain;
  EXPECT_TRUE(contains(it->explain, "not exited")) << it->explain;
  EXPECT_FALSE(contains(it->explain, "often a hang")) << it->explain;
}

// The padded transpose's measured fraction is quoted from docs/measured/H200.md's lesson 07 table,
// not from another run: the figure in the quiz is the table's.
TEST(QuizFacts, PaddedPredictionQuotesTheMeasuredTable) {
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
  const Quiz q = load("07_transpose");
  const auto it = std::find_if(q.questions.begin(), q.questions.end(),
                               [](const Question& x) { return x.id == "predict-padded"; });
  ASSERT_NE(it, q.questions.end());
  EXPECT_TRUE(contains(it->explain, "measured " + percent + "% of its copy rung")) << it->explain;
}

// Every numeric question's answer, computed from first principles. A numeric question added to
// a quiz without an entry here fails the test.
TEST(QuizFiles, NumericAnswersAreRecomputed) {
  const std::map<std::string, std::function<double()>> computed = {
      {"copy-model-stride-2",
       [] {
         const int s = 2;
         return 100.0 * 8.0 / (4.0 + 4.0 * std::min(s, 8));
       }},
      {"padded-bank", [] { return static_cast<double>((5 * 33 + 7) % 32); }},
      {"float4-tail",
       [] {
         const int n = 1027, whole = n / 4;  // threads t < whole copy a float4
         return static_cast<double>(n - 4 * whole);
       }},
      {"effective-bandwidth", [] { return 2.0 * 4096 * 4096 * 4 / 40e-6 / 1e9; }},
  };
  int checked = 0;
  for (const char* lesson : kLessonsWithQuiz)
    for (const Question& q : load(lesson).questions) {
      if (q.kind != Kind::numeric) continue;
      SCOPED_TRACE(std::string(lesson) + " " + q.id);
      ASSERT_TRUE(computed.count(q.id)) << "numeric question without a recomputation in this test";
      const double truth = computed.at(q.id)();
      EXPECT_LE(std::fabs(q.answer - truth), q.tolerance + 1e-9)
          << "file says " << q.answer << ", computed " << truth;
      const Instance inst = instantiate(q, 1);
      EXPECT_TRUE(check(inst, format_number(truth)).correct);
      EXPECT_TRUE(check(inst, format_number(q.answer)).correct);
      if (!q.unit.empty()) {
        EXPECT_TRUE(check(inst, format_number(q.answer) + " " + q.unit).correct);
      }
      const auto wrong = check(inst, wrong_number(inst));
      EXPECT_TRUE(wrong.understood);
      EXPECT_FALSE(wrong.correct);
      EXPECT_TRUE(contains(wrong.explanation, q.explain));
      EXPECT_FALSE(check(inst, "about twelve").understood);
      ++checked;
    }
  EXPECT_EQ(checked, static_cast<int>(computed.size()));
}

// The parametric questions: over many seeds, the engine's answer is the simulator's for the
// parameters it drew, the explanation names them, every listed value gets drawn, and the same
// seed draws the same question.
TEST(QuizFiles, SectorsAnswersAreTheSimulators) {
  int questions = 0;
  for (const char* lesson : kLessonsWithQuiz)
    for (const Question& q : load(lesson).questions) {
      if (q.kind != Kind::sectors) continue;
      SCOPED_TRACE(std::string(lesson) + " " + q.id);
      ++questions;
      std::set<long long> strides, offsets;
      std::set<int> widths;
      std::set<std::string> prompts;
      for (unsigned long long seed = 1; seed <= 400; ++seed) {
        const Instance inst = instantiate(q, seed);
        ASSERT_TRUE(inst.access && inst.result);
        const course::sim::Access& a = *inst.access;
        auto listed = [](const auto& values, auto v) {
          return std::find(values.begin(), values.end(), v) != values.end();
        };
        ASSERT_TRUE(listed(q.params.stride, a.stride));
        ASSERT_TRUE(listed(q.params.offset, a.offset));
        ASSERT_TRUE(listed(q.params.width, a.element_bytes));
        ASSERT_TRUE(listed(q.params.lanes, a.lanes));
        strides.insert(a.stride);
        offsets.insert(a.offset);
        widths.insert(a.element_bytes);
        prompts.insert(inst.prompt);

        const course::sim::Result r = course::sim::simulate(a);
        double expected = 0;
        switch (q.ask) {
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
        if (q.ask == Quantity::efficiency_percent) {  // as a student rounds it
          EXPECT_TRUE(check(inst, course::sim::percent(r.efficiency)).correct);
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
      EXPECT_EQ(strides.size(), q.params.stride.size()) << "every stride drawn at least once";
      EXPECT_EQ(offsets.size(), q.params.offset.size());
      EXPECT_EQ(widths.size(), q.params.width.size());
      EXPECT_GT(prompts.size(), 1u) << "attempts must differ";
    }
  EXPECT_GE(questions, 3);
}

TEST(QuizFiles, PredictionsAreNotScoredAndCompareWithTheMeasurement) {
  for (const Question& q : load("07_transpose").questions) {
    if (q.kind != Kind::prediction) continue;
    SCOPED_TRACE(q.id);
    const Instance inst = instantiate(q, 1);
    const auto before = check(inst, "20");
    EXPECT_TRUE(before.understood);
    EXPECT_FALSE(before.scored);
    EXPECT_FALSE(before.correct);
    ASSERT_TRUE(before.value);
    EXPECT_EQ(*before.value, 20);
    EXPECT_TRUE(contains(before.explanation, "grade the step to compare")) << before.explanation;
    EXPECT_TRUE(contains(before.explanation, q.explain));

    const auto after = check(inst, "20%", 0.153);
    EXPECT_TRUE(contains(after.explanation, "15.3%")) << after.explanation;
    EXPECT_TRUE(contains(after.explanation, "4.7 points below your estimate")) << after.explanation;
    EXPECT_FALSE(contains(after.explanation, "grade the step"));
    const auto above = check(inst, "90", 0.97);
    EXPECT_TRUE(contains(above.explanation, "7.0 points above your estimate")) << above.explanation;

    EXPECT_FALSE(check(inst, "150").understood);
    EXPECT_FALSE(check(inst, "a lot").understood);
    const auto skipped = check(inst, "-", 0.5);
    EXPECT_TRUE(skipped.understood && skipped.skipped);
    EXPECT_TRUE(contains(skipped.explanation, "50.0%"));
  }
}

// ---- the format's validation ------------------------------------------------------------------

std::string quiz_text(const std::string& questions, const std::string& lesson = "07_transpose") {
  return R"({"schema": 1, "lesson": ")" + lesson + R"(", "questions": [)" + questions + "]}";
}

const char* const kChoice =
    R"({"id": "c1", "kind": "choice", "prompt": "P?", "choices": ["x", "y"], "answer": "a",
        "explain": "E."})";

// The QuizError message of `text`, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    Quiz::parse(text, "test.json");
  } catch (const QuizError& e) {
    return e.what();
  }
  return "";
}

TEST(QuizParse, AValidMinimalQuiz) {
  const Quiz q = Quiz::parse(quiz_text(kChoice), "test.json");
  ASSERT_EQ(q.questions.size(), 1u);
  EXPECT_EQ(q.questions[0].answer_index, 0);
  EXPECT_EQ(q.scored_count(), 1);
}

TEST(QuizParse, ErrorsNameTheFileTheQuestionAndTheProblem) {
  struct Case {
    std::string text, expect;
  };
  const std::vector<Case> cases = {
      {"{not json", "test.json: not valid JSON"},
      {"[]", "a quiz must be a JSON object"},
      {R"({"schema": 2, "lesson": "x", "questions": [)" + std::string(kChoice) + "]}",
       "\"schema\" must be 1 (got 2)"},
      {R"({"schema": 1, "lesson": "x", "questions": []})", "\"questions\" must be a non-empty"},
      {R"({"schema": 1, "questions": [)" + std::string(kChoice) + "]}", "\"lesson\" is missing"},
      {quiz_text(R"({"id": "a", "kind": "essay", "prompt": "P", "explain": "E"})"),
       "question 1 (a): \"kind\" must be choice, numeric, sectors or prediction (got \"essay\")"},
      {quiz_text(std::string(kChoice) + "," + kChoice),
       "question 2 (c1): this id is used by an earlier question"},
      {quiz_text(R"({"id": "bad id", "kind": "choice", "prompt": "P", "choices": ["x", "y"],
                     "answer": "a", "explain": "E"})"),
       "\"id\" may hold only letters"},
      {quiz_text(R"({"id": "c", "kind": "choice", "prompt": "P", "choices": ["x", "y"],
                     "answer": "c", "explain": "E"})"),
       "question 1 (c): \"answer\" must be the letter of a choice, a to b (got \"c\")"},
      {quiz_text(R"({"id": "c", "kind": "choice", "prompt": "P", "choices": ["x"],
                     "answer": "a", "explain": "E"})"),
       "needs 2 to 8 choices (got 1)"},
      {quiz_text(R"({"id": "c", "kind": "choice", "prompt": "P", "choices": ["x", "X "],
                     "answer": "a", "explain": "E"})"),
       "appears twice"},
      {quiz_text(R"({"id": "c", "kind": "choice", "prompt": "", "choices": ["x", "y"],
                     "answer": "a", "explain": "E"})"),
       "\"prompt\" is empty"},
      {quiz_text(R"({"id": "c", "kind": "choice", "prompt": "P", "choices": ["x", "y"],
                     "answer": "a"})"),
       "question 1 (c): \"explain\" is missing"},
      {quiz_text(R"({"id": "n", "kind": "numeric", "prompt": "P", "answer": "12",
                     "explain": "E"})"),
       "\"answer\" must be a number (got string)"},
      {quiz_text(R"({"id": "n", "kind": "numeric", "prompt": "P", "answer": 12,
                     "tolerance": -1, "explain": "E"})"),
       "\"tolerance\" must be 0 or more"},
      {quiz_text(R"({"id": "n", "kind": "numeric", "prompt": "P", "answer": 12,
                     "tolerence": 1, "explain": "E"})"),
       "unknown key \"tolerence\" in a numeric question"},
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
       "params.stride lists a value twice"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"stride": [1.5]}, "explain": "E"})"),
       "params.stride must hold integers"},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr}", "ask": "sectors",
                     "params": {"size": [1]}, "explain": "E"})"),
       "unknown parameter \"size\""},
      {quiz_text(R"({"id": "s", "kind": "sectors", "prompt": "{expr} {lanes}", "ask": "sectors",
                     "params": {"lanes": [16, 33]}, "explain": "E"})"),
       "lanes must be between 1 and 32"},
      {quiz_text(R"({"id": "p", "kind": "prediction", "prompt": "P", "explain": "E"})"),
       "question 1 (p): \"measured\" must be an object"},
      {quiz_text(R"({"id": "p", "kind": "prediction", "prompt": "P", "explain": "E",
                     "measured": {"lesson": "07_transpose"}})"),
       "question 1 (p), measured: \"step\" is missing"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(c.text);
    EXPECT_TRUE(contains(e, c.expect)) << "expected \"" << c.expect << "\" in:\n"
                                       << e << "\nfor: " << c.text;
  }
}

TEST(QuizParse, ReportsEveryProblemAtOnce) {
  const std::string e = error_of(quiz_text(
      R"({"id": "a", "kind": "choice", "prompt": "P", "choices": ["x", "y"], "answer": "z",
          "explain": "E"},
         {"id": "b", "kind": "numeric", "prompt": "P", "explain": "E"})"));
  EXPECT_TRUE(contains(e, "test.json: 2 problems:")) << e;
  EXPECT_TRUE(contains(e, "question 1 (a)")) << e;
  EXPECT_TRUE(contains(e, "question 2 (b): \"answer\" is missing")) << e;
}

TEST(QuizParse, LiteralBracesAndPlaceholdersInSectorsText) {
  const Quiz q = Quiz::parse(quiz_text(R"({"id": "s", "kind": "sectors", "ask": "bytes_used",
                    "prompt": "struct {{ float v[{stride}]; }} p[32]; lane i reads {expr} of {type}",
                    "params": {"stride": [3], "offset": [2]}, "explain": "{distance} B apart"})"),
                             "test.json");
  const Instance inst = instantiate(q.questions[0], 7);
  EXPECT_EQ(inst.prompt, "struct { float v[3]; } p[32]; lane i reads a[2 + i*3] of float");
  EXPECT_EQ(inst.explain, "12 B apart");
  EXPECT_EQ(inst.answer, 128);
  EXPECT_EQ(inst.unit, "B");
}

TEST(QuizParse, PredictionsMustNameAStepOfTheManifest) {
  const course::Manifest m = manifest();
  const Quiz ok = Quiz::parse(quiz_text(R"({"id": "p", "kind": "prediction", "prompt": "P",
      "explain": "E", "measured": {"lesson": "07_transpose", "step": "tiled"}})"),
                              "test.json");
  EXPECT_TRUE(course::quiz::problems(ok, m).empty());
  const Quiz bad = Quiz::parse(quiz_text(R"({"id": "p", "kind": "prediction", "prompt": "P",
      "explain": "E", "measured": {"lesson": "07_transpose", "step": "tiledd"}})"),
                               "test.json");
  const auto problems = course::quiz::problems(bad, m);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(contains(problems[0], "lesson 07_transpose has no step \"tiledd\"")) << problems[0];
  const Quiz elsewhere = Quiz::parse(quiz_text(kChoice, "99_nothing"), "test.json");
  EXPECT_FALSE(course::quiz::problems(elsewhere, m).empty());
}

TEST(QuizNumbers, ReadsNumbersAsStudentsTypeThem) {
  const std::vector<std::pair<std::string, double>> good = {
      {"12", 12},       {" 12.5 ", 12.5},         {"12.5%", 12.5},   {"1,024", 1024},
      {"1024 B", 1024}, {"32 sectors", 32},       {"-3", -3},        {".5", 0.5},
      {"1e3", 1000},    {"3,355.4 GB/s", 3355.4}, {"1,000,000", 1e6}};
  for (const auto& [text, value] : good) {
    const auto v = parse_number(text);
    ASSERT_TRUE(v) << text;
    EXPECT_DOUBLE_EQ(*v, value) << text;
  }
  for (const char* bad : {"", "abc", "about 12", "12 or 13", "1,5", "12,34", "1234,567", "nan",
                          "inf", "0x10", "-", "."})
    EXPECT_FALSE(parse_number(bad)) << bad;
  EXPECT_EQ(format_number(1024), "1,024");
  EXPECT_EQ(format_number(134217728), "134,217,728");
  EXPECT_EQ(format_number(12.5), "12.5");
  EXPECT_EQ(format_number(-3), "-3");
  EXPECT_EQ(format_number(200.0 / 3), "66.6667");
}

// ---- grader quiz ------------------------------------------------------------------------------

class QuizCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("grader-quiz-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    manifest_ = manifest();
    options_.out = &out_;
    options_.seed = 42;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string progress_path() const { return (dir_ / "state" / "progress.json").string(); }

  // The answers a student who knows everything would give to `lesson`'s quiz drawn with `seed`.
  std::vector<std::string> right_answers(const std::string& lesson, unsigned long long seed) {
    std::vector<std::string> out;
    for (const Question& q : load(lesson).questions)
      out.push_back(right_answer(instantiate(q, seed)));
    return out;
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  fs::path dir_;
  course::Manifest manifest_;
  std::ostringstream out_;
  driver::QuizCommandOptions options_;
};

TEST_F(QuizCommand, AnswersFileGivesTheExpectedScoreAndRecordsIt) {
  const Quiz quiz = load("07_transpose");
  std::vector<std::string> answers = right_answers("07_transpose", 42);
  // Get two scored questions wrong (one choice, one parametric) and skip a third.
  int wrong = 0, skipped = 0;
  for (std::size_t k = 0; k < quiz.questions.size(); ++k) {
    const Instance inst = instantiate(quiz.questions[k], 42);
    if (inst.question.kind == Kind::choice && wrong == 0) {
      answers[k] = inst.question.answer_index == 0 ? "b" : "a";
      ++wrong;
    } else if (inst.question.kind == Kind::sectors && wrong == 1) {
      answers[k] = wrong_number(inst);
      ++wrong;
    } else if (inst.question.kind == Kind::numeric && skipped == 0) {
      answers[k] = "-";
      ++skipped;
    }
  }
  ASSERT_EQ(wrong, 2);
  ASSERT_EQ(skipped, 1);
  std::string file = "# answers for 07_transpose, seed 42\n\n";
  for (const std::string& a : answers) file += a + "\n";
  options_.answers_file = write("answers.txt", file);

  const int scored = quiz.scored_count();
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(driver::run_quiz_command(manifest_, "07", options_, progress), 0) << out_.str();
  }
  const std::string text = flat(out_.str());
  const std::string score = "Score: " + std::to_string(scored - 3) + "/" + std::to_string(scored);
  EXPECT_TRUE(contains(text, score)) << text;
  EXPECT_TRUE(contains(text, "Seed 42")) << text;
  EXPECT_TRUE(contains(text, "✗ wrong")) << text;
  EXPECT_TRUE(contains(text, "– skipped")) << text;
  EXPECT_TRUE(contains(text, "grade the step to compare")) << text;
  EXPECT_TRUE(contains(text, "per warp request")) << text;  // sim::draw of a missed one

  // A fresh Progress reads what the command saved.
  const driver::Progress reread(progress_path());
  const auto record = reread.quiz_score("07_transpose");
  ASSERT_TRUE(record);
  EXPECT_EQ(record->score, scored - 3);
  EXPECT_EQ(record->total, scored);
  EXPECT_EQ(record->attempts, 1);
  EXPECT_FALSE(record->last_taken.empty());
  EXPECT_EQ(reread.prediction("07_transpose", "predict-naive"), 20);
  EXPECT_EQ(reread.prediction("07_transpose", "predict-padded"), 20);
}

TEST_F(QuizCommand, AnswerFlagsAndAFullScore) {
  options_.answers = right_answers("06_coalescing", 42);
  driver::Progress progress(progress_path());
  ASSERT_EQ(driver::run_quiz_command(manifest_, "coalescing", options_, progress), 0) << out_.str();
  const int n = load("06_coalescing").scored_count();
  EXPECT_TRUE(
      contains(out_.str(), "Score: " + std::to_string(n) + "/" + std::to_string(n) + " (100%)"))
      << out_.str();
  EXPECT_FALSE(contains(out_.str(), "✗ wrong"));
  EXPECT_EQ(progress.quiz_score("06_coalescing")->score, n);
}

TEST_F(QuizCommand, PredictionIsComparedWithTheStoredMeasurement) {
  driver::Progress progress(progress_path());
  course::LessonReport report;
  report.id = "07_transpose";
  course::StepReport naive;
  naive.name = "naive";
  naive.status = "pass";
  naive.speed = course::SpeedFigures{};
  naive.speed->ratio = 0.153;
  report.steps.push_back(naive);
  progress.update(report, "2025-01-01T00:00:00Z");
  ASSERT_NEAR(progress.fraction("07_transpose", "naive"), 0.153, 1e-12);

  options_.answers = right_answers("07_transpose", 42);
  ASSERT_EQ(driver::run_quiz_command(manifest_, "07_transpose", options_, progress), 0);
  const std::string text = flat(out_.str());
  EXPECT_TRUE(contains(text, "Measured on your GPU: 15.3%")) << text;
  EXPECT_TRUE(contains(text, "4.7 points below your estimate")) << text;
  // tiled_padded was never measured.
  EXPECT_TRUE(contains(text, "grade the step to compare (grader 07_transpose.tiled_padded)"))
      << text;
}

TEST_F(QuizCommand, InteractiveThroughAStream) {
  const Quiz quiz = load("07_transpose");
  std::vector<std::string> answers = right_answers("07_transpose", 42);
  std::string typed;
  bool garbled = false;
  for (std::size_t k = 0; k < answers.size(); ++k) {
    if (!garbled && quiz.questions[k].kind == Kind::choice) {
      typed += "\n";            // an empty line is asked again
      typed += "the second\n";  // so is an answer that is no letter
      garbled = true;
    }
    typed += answers[k] + "\n";
  }
  std::istringstream in(typed);
  options_.in = &in;
  options_.seed = 42;
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(driver::run_quiz_command(manifest_, "7", options_, progress), 0) << out_.str();
    // A second attempt, all skipped: the best attempt stays.
    std::string skips;
    for (std::size_t k = 0; k < answers.size(); ++k) skips += "-\n";
    std::istringstream in2(skips);
    options_.in = &in2;
    ASSERT_EQ(driver::run_quiz_command(manifest_, "7", options_, progress), 0);
  }
  const std::string text = flat(out_.str());
  const int n = quiz.scored_count();
  EXPECT_TRUE(contains(text, "type an answer, or - to skip")) << text;
  EXPECT_TRUE(contains(text, "type a letter from a to")) << text;
  EXPECT_TRUE(contains(text, "Score: " + std::to_string(n) + "/" + std::to_string(n))) << text;
  EXPECT_TRUE(contains(text, "Score: 0/" + std::to_string(n))) << text;
  EXPECT_TRUE(contains(
      text, "Best so far: " + std::to_string(n) + "/" + std::to_string(n) + ", over 2 attempts"))
      << text;
  const auto record = driver::Progress(progress_path()).quiz_score("07_transpose");
  ASSERT_TRUE(record);
  EXPECT_EQ(record->score, 0);
  EXPECT_EQ(record->best_score, n);
  EXPECT_EQ(record->attempts, 2);
}

TEST_F(QuizCommand, EndOfInputStopsWithoutRecording) {
  std::istringstream in("20\n");
  options_.in = &in;
  driver::Progress progress(progress_path());
  EXPECT_EQ(driver::run_quiz_command(manifest_, "07_transpose", options_, progress), 0);
  EXPECT_TRUE(contains(out_.str(), "Quiz stopped at question 2 of")) << out_.str();
  EXPECT_FALSE(progress.quiz_score("07_transpose"));
  EXPECT_FALSE(fs::exists(progress_path()));
}

TEST_F(QuizCommand, UsageErrors) {
  driver::Progress progress(progress_path());
  auto run = [&](const std::string& spec) {
    out_.str("");
    return driver::run_quiz_command(manifest_, spec, options_, progress);
  };
  options_.answers = {"a"};
  EXPECT_EQ(run("nosuchlesson"), 2);
  EXPECT_TRUE(contains(out_.str(), "no lesson 'nosuchlesson'")) << out_.str();
  EXPECT_EQ(run("15"), 2);
  EXPECT_TRUE(contains(out_.str(), "15_occupancy_profiling has no quiz yet")) << out_.str();
  EXPECT_TRUE(contains(out_.str(), "06_coalescing, 07_transpose")) << out_.str();
  EXPECT_EQ(run("07_transpose.tiled"), 2);
  EXPECT_TRUE(contains(out_.str(), "quizzes are per lesson")) << out_.str();
  EXPECT_EQ(run("07"), 2);  // one answer for many questions
  EXPECT_TRUE(contains(out_.str(), "--answer gives 1 answer, but the quiz of 07_transpose has"))
      << out_.str();

  options_.answers.clear();
  options_.answers_file = (dir_ / "missing.txt").string();
  EXPECT_EQ(run("07"), 2);
  EXPECT_TRUE(contains(out_.str(), "cannot read the answers file")) << out_.str();
  options_.answers_file = write("short.txt", "a\nb\n");
  EXPECT_EQ(run("07"), 2);
  EXPECT_TRUE(contains(out_.str(), "gives 2 answers")) << out_.str();
  options_.answers = {"a"};
  EXPECT_EQ(run("07"), 2);
  EXPECT_TRUE(contains(out_.str(), "not both")) << out_.str();
  EXPECT_FALSE(progress.quiz_score("07_transpose"));
}

TEST_F(QuizCommand, MalformedQuizFileIsAnInternalError) {
  driver::Progress progress(progress_path());
  const course::Lesson& lesson = *manifest_.find("07_transpose");
  options_.answers = {"a"};
  EXPECT_EQ(driver::run_quiz_file(manifest_, lesson, write("bad.json", "{\"schema\": 1,"), options_,
                                  progress),
            5);
  EXPECT_TRUE(contains(out_.str(), "the quiz file is malformed")) << out_.str();
  out_.str("");
  EXPECT_EQ(driver::run_quiz_file(manifest_, lesson,
                                  write("other.json", quiz_text(kChoice, "06_coalescing")),
                                  options_, progress),
            5);
  EXPECT_TRUE(contains(out_.str(), "belongs to 07_transpose")) << out_.str();
  out_.str("");
  EXPECT_EQ(driver::run_quiz_file(manifest_, lesson, write("good.json", quiz_text(kChoice)),
                                  options_, progress),
            0);
  EXPECT_TRUE(contains(out_.str(), "Score: 1/1 (100%)")) << out_.str();
}

TEST(QuizProgress, KeepsTheBestAttemptByFraction) {
  const fs::path p =
      fs::temp_directory_path() / ("grader-quiz-progress-" + std::to_string(::getpid()) + ".json");
  fs::remove(p);
  driver::Progress progress(p.string());
  EXPECT_FALSE(progress.quiz_score("07_transpose"));
  EXPECT_LT(progress.prediction("07_transpose", "predict-naive"), 0);
  progress.set_quiz_score("07_transpose", 3, 4, "t1");
  progress.set_quiz_score("07_transpose", 5, 8, "t2");  // 62.5% < 75%: not the best
  auto s = progress.quiz_score("07_transpose");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->score, 5);
  EXPECT_EQ(s->total, 8);
  EXPECT_EQ(s->best_score, 3);
  EXPECT_EQ(s->best_total, 4);
  EXPECT_EQ(s->attempts, 2);
  EXPECT_EQ(s->last_taken, "t2");
  progress.set_quiz_score("07_transpose", 7, 8, "t3");
  EXPECT_EQ(progress.quiz_score("07_transpose")->best_score, 7);
  progress.set_prediction("07_transpose", "predict-naive", "07_transpose", "naive", 25, "t3");
  EXPECT_EQ(progress.prediction("07_transpose", "predict-naive"), 25);
  // Quiz records do not disturb the step records.
  EXPECT_FALSE(progress.step_passed("07_transpose", "naive"));
  EXPECT_LT(progress.fraction("07_transpose", "naive"), 0);
  ASSERT_TRUE(progress.save());
  EXPECT_EQ(driver::Progress(p.string()).quiz_score("07_transpose")->attempts, 3);
  fs::remove(p);
}

}  // namespace
