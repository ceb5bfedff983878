// Self-check quizzes: every ready lesson's quiz parses and matches the manifest, every answer
// written in it is pinned by the lesson's own lessons/<id>/quiz_test.cpp (quiz_pins.hpp), the
// format's validation, and `grader quiz` run non-interactively and interactively against a
// temporary progress file. No lesson is named here: the lessons come from the manifest.
#include "course/quiz.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "course/manifest.hpp"
#include "course/report.hpp"
#include "progress.hpp"
#include "quiz_command.hpp"
#include "quiz_fixture.hpp"
#include "quiz_pins.hpp"
#include "test_dir.hpp"

namespace {

namespace fs = std::filesystem;
using course::quiz::check;
using course::quiz::format_number;
using course::quiz::Instance;
using course::quiz::instantiate;
using course::quiz::Kind;
using course::quiz::parse_number;
using course::quiz::Question;
using course::quiz::Quiz;
using test_fixture::contains;
using test_fixture::error_of;
using test_fixture::flat;
using test_fixture::load_quiz;
using test_fixture::quiz_text;
using test_fixture::ready_lessons;
using test_fixture::right_answer;
using test_fixture::wrong_number;

// Every question of every ready lesson's quiz, with its lesson.
struct LessonQuestion {
  std::string lesson;
  Question question;
};
std::vector<LessonQuestion> all_questions(Kind kind) {
  std::vector<LessonQuestion> out;
  for (const course::Lesson& l : ready_lessons())
    for (const Question& q : load_quiz(l.id).questions)
      if (q.kind == kind) out.push_back({l.id, q});
  return out;
}

// ---- the real quiz files ----------------------------------------------------------------------

TEST(QuizFiles, EveryReadyLessonHasAQuizThatMatchesTheManifest) {
  const course::Manifest m = test_fixture::manifest();
  ASSERT_FALSE(ready_lessons().empty());
  for (const course::Lesson& lesson : ready_lessons()) {
    SCOPED_TRACE(lesson.id);
    ASSERT_TRUE(fs::exists(test_fixture::quiz_path(lesson.id)));
    const Quiz q = load_quiz(lesson.id);
    EXPECT_EQ(q.lesson, lesson.id);
    EXPECT_GE(q.questions.size(), 6u);
    EXPECT_TRUE(course::quiz::problems(q, m).empty());
    std::set<Kind> kinds;
    for (const Question& question : q.questions) kinds.insert(question.kind);
    EXPECT_GE(kinds.size(), 2u) << "a mix of kinds";
  }
}

// The pins of a choice question must find the right choice by its text: they are asked on the
// question without its answer and with its choices rotated, each rotation once.
int pinned_choice_in_file_order(const quiz_pins::Pin& pin, const Question& q) {
  int agreed = -2;
  for (std::size_t shift = 0; shift < q.choices.size(); ++shift) {
    Question blank = q;
    blank.answer_index = -1;
    std::rotate(blank.choices.begin(), blank.choices.begin() + shift, blank.choices.end());
    const int picked = pin.choice(blank);
    if (picked < 0 || picked >= static_cast<int>(q.choices.size())) return -1;
    const int in_file = static_cast<int>((picked + shift) % q.choices.size());
    if (agreed != -2 && agreed != in_file) return -1;  // depends on the position, not the text
    agreed = in_file;
  }
  return agreed;
}

TEST(QuizPins, EveryWrittenAnswerIsPinnedByItsLesson) {
  std::map<std::pair<std::string, std::string>, const quiz_pins::Pin*> by_question;
  for (const quiz_pins::Pin& pin : quiz_pins::pins())
    EXPECT_TRUE(by_question.insert({{pin.lesson, pin.id}, &pin}).second)
        << pin.where << ": " << pin.lesson << " " << pin.id << " is pinned twice";
  int pinned = 0;
  for (Kind kind : {Kind::choice, Kind::numeric})
    for (const auto& [lesson, q] : all_questions(kind)) {
      SCOPED_TRACE(lesson + " " + q.id);
      const auto it = by_question.find({lesson, q.id});
      if (it == by_question.end()) {
        ADD_FAILURE() << "no pin: add "
                      << (kind == Kind::choice ? "QUIZ_CHOICE(\"" + q.id + "\", q)"
                                               : "QUIZ_NUMERIC(\"" + q.id + "\")")
                      << " to lessons/" << lesson << "/quiz_test.cpp";
        continue;
      }
      const quiz_pins::Pin& pin = *it->second;
      by_question.erase(it);
      ++pinned;
      if (kind == Kind::choice) {
        ASSERT_TRUE(pin.choice) << pin.where << ": a choice question needs QUIZ_CHOICE";
        EXPECT_EQ(pinned_choice_in_file_order(pin, q), q.answer_index)
            << pin.where << ": the pin picks another choice than the file's \"answer\", or a "
            << "position instead of a text";
      } else {
        ASSERT_TRUE(pin.numeric) << pin.where << ": a numeric question needs QUIZ_NUMERIC";
        const double truth = pin.numeric();
        EXPECT_LE(std::fabs(q.answer - truth), q.tolerance + 1e-9)
            << pin.where << ": the file says " << q.answer << ", the pin computes " << truth;
      }
    }
  for (const auto& [key, pin] : by_question)
    ADD_FAILURE() << pin->where << ": pins " << key.first << " " << key.second
                  << ", which is no choice or numeric question of that lesson's quiz";
  EXPECT_GT(pinned, 0);
}

TEST(QuizPins, LessonIsTheFoldersName) {
  EXPECT_EQ(quiz_pins::lesson_of("/src/lessons/08_banks/quiz_test.cpp"), "08_banks");
  EXPECT_EQ(quiz_pins::lesson_of("/x/lessons/y/lessons/08_banks/quiz_test.cpp"), "08_banks");
  EXPECT_EQ(quiz_pins::lesson_of("/src/grader/tests/quiz_test.cpp"), "");
}

TEST(QuizFiles, ChoiceAnswersAreAcceptedAndTheOthersRejected) {
  int checked = 0;
  for (const auto& [lesson, q] : all_questions(Kind::choice)) {
    SCOPED_TRACE(lesson + " " + q.id);
    const Instance inst = instantiate(q, 1);
    const char right = static_cast<char>('a' + inst.answer_index);
    const std::string text = inst.choices[inst.answer_index];
    EXPECT_EQ(text, q.choices[q.answer_index]);
    for (const std::string& a :
         {std::string(1, right), std::string(1, char(right - 32)), std::string(1, right) + ")",
          "(" + std::string(1, right) + ")", "  " + std::string(1, right) + " ", text}) {
      const auto v = check(inst, a);
      EXPECT_TRUE(v.understood && v.correct && v.scored) << a;
      EXPECT_TRUE(contains(v.explanation, "Right")) << v.explanation;
      EXPECT_TRUE(contains(v.explanation, q.explain));
    }
    for (std::size_t k = 0; k < inst.choices.size(); ++k) {
      if (static_cast<int>(k) == inst.answer_index) continue;
      const auto v = check(inst, std::string(1, static_cast<char>('a' + k)));
      EXPECT_TRUE(v.understood);
      EXPECT_FALSE(v.correct);
      EXPECT_TRUE(contains(v.explanation, text)) << v.explanation;
    }
    const auto beyond = check(inst, std::string(1, static_cast<char>('a' + q.choices.size())));
    EXPECT_FALSE(beyond.understood || beyond.correct);
    EXPECT_FALSE(check(inst, "maybe").understood);
    EXPECT_TRUE(check(inst, "-").skipped);
    EXPECT_FALSE(check(inst, "-").correct);
    ++checked;
  }
  EXPECT_GE(checked, 1);
}

TEST(QuizFiles, NumericAnswersAreCheckedWithinTheirTolerance) {
  int checked = 0;
  for (const auto& [lesson, q] : all_questions(Kind::numeric)) {
    SCOPED_TRACE(lesson + " " + q.id);
    const Instance inst = instantiate(q, 1);
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
  EXPECT_GE(checked, 1);
}

TEST(QuizFiles, PredictionsAreNotScoredAndCompareWithTheMeasurement) {
  const auto predictions = all_questions(Kind::prediction);
  if (predictions.empty()) GTEST_SKIP() << "no quiz has a prediction question";
  for (const auto& [lesson, q] : predictions) {
    SCOPED_TRACE(lesson + " " + q.id);
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

// A lesson of the manifest, for quizzes written inline, and one of its steps.
const course::Lesson& some_lesson() {
  static const std::vector<course::Lesson> ready = ready_lessons();
  return ready.front();
}

std::string quiz_text(const std::string& questions) {
  return test_fixture::quiz_text(questions, some_lesson().id);
}

const char* const kChoice =
    R"({"id": "c1", "kind": "choice", "prompt": "P?", "choices": ["x", "y"], "answer": "a",
        "explain": "E."})";

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
       "question 1 (a): \"kind\" must be one of choice, numeric, prediction"},
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
      {quiz_text(R"({"id": "p", "kind": "prediction", "prompt": "P", "explain": "E"})"),
       "question 1 (p): \"measured\" must be an object"},
      {quiz_text(R"({"id": "p", "kind": "prediction", "prompt": "P", "explain": "E",
                     "measured": {"lesson": "NN_name"}})"),
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

TEST(QuizParse, PredictionsMustNameAStepOfTheManifest) {
  const course::Manifest m = test_fixture::manifest();
  const std::string lesson = some_lesson().id, step = some_lesson().steps.front().name;
  auto prediction = [&](const std::string& s) {
    return Quiz::parse(quiz_text(fmt::format(R"({{"id": "p", "kind": "prediction", "prompt": "P",
      "explain": "E", "measured": {{"lesson": "{}", "step": "{}"}}}})",
                                             lesson, s)),
                       "test.json");
  };
  EXPECT_TRUE(course::quiz::problems(prediction(step), m).empty());
  const auto problems = course::quiz::problems(prediction(step + "d"), m);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(contains(problems[0], fmt::format("lesson {} has no step \"{}d\"", lesson, step)))
      << problems[0];
  const Quiz elsewhere = Quiz::parse(test_fixture::quiz_text(kChoice, "99_nothing"), "test.json");
  EXPECT_FALSE(course::quiz::problems(elsewhere, m).empty());
}

TEST(QuizText, PlaceholdersAndLiteralBraces) {
  std::set<std::string> used;
  std::vector<std::string> errors;
  EXPECT_EQ(
      course::quiz::fill_placeholders("struct {{ int v[{n}]; }} {n}", {{"n", "3"}}, &used, &errors),
      "struct { int v[3]; } 3");
  EXPECT_EQ(used, std::set<std::string>{"n"});
  EXPECT_TRUE(errors.empty());
  course::quiz::fill_placeholders("{m} { }", {{"n", "3"}}, &used, &errors);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_TRUE(contains(errors[0], "unknown placeholder {m}; known: {n}")) << errors[0];
  EXPECT_TRUE(contains(errors[1], "write {{ for a literal brace")) << errors[1];
  EXPECT_TRUE(contains(errors[2], "write }} for a literal brace")) << errors[2];
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
  EXPECT_EQ(course::quiz::format_percent(100), "100%");
  EXPECT_EQ(course::quiz::format_percent(12.5), "12.5%");
  EXPECT_EQ(course::quiz::format_percent(99.99), "99.9%");
}

// ---- grader quiz ------------------------------------------------------------------------------

// One question of each built-in kind, the prediction on the fixture lesson's first step.
std::string fixture_quiz() {
  const course::Lesson& l = some_lesson();
  return quiz_text(fmt::format(
      R"({{"id": "pick", "kind": "choice", "prompt": "Pick y.", "choices": ["x", "y", "z"],
           "answer": "b", "explain": "It is y."}},
         {{"id": "count", "kind": "numeric", "prompt": "How many?", "answer": 12,
           "unit": "floats", "explain": "Twelve."}},
         {{"id": "guess", "kind": "prediction", "prompt": "Guess.", "explain": "Guessed.",
           "measured": {{"lesson": "{}", "step": "{}"}}}},
         {{"id": "pick-again", "kind": "choice", "prompt": "Pick q.", "choices": ["p", "q"],
           "answer": "b", "explain": "It is q."}})",
      l.id, l.steps.front().name));
}

class QuizCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test_fixture::fresh_test_dir("quiz");
    manifest_ = test_fixture::manifest();
    options_.out = &out_;
    options_.seed = 42;
    quiz_file_ = write("quiz.json", fixture_quiz());
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string progress_path() const { return (dir_ / "state" / "progress.json").string(); }
  const course::Lesson& lesson() const { return *manifest_.find(some_lesson().id); }

  // The answers a student who knows everything would give to the quiz in `path` with `seed`.
  static std::vector<std::string> right_answers(const std::string& path, unsigned long long seed) {
    std::vector<std::string> out;
    for (const Question& q : Quiz::load(path).questions)
      out.push_back(right_answer(instantiate(q, seed)));
    return out;
  }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  int run_fixture(driver::Progress& progress) {
    return driver::run_quiz_file(manifest_, lesson(), quiz_file_, options_, progress);
  }

  fs::path dir_;
  course::Manifest manifest_;
  std::ostringstream out_;
  driver::QuizCommandOptions options_;
  std::string quiz_file_;
};

TEST_F(QuizCommand, AnswersFileGivesTheExpectedScoreAndRecordsIt) {
  std::vector<std::string> answers = right_answers(quiz_file_, 42);
  const Instance pick = instantiate(Quiz::load(quiz_file_).questions[0], 42);
  answers[0] = pick.answer_index == 0 ? "b" : "a";  // wrong
  answers[1] = "-";                                 // skipped
  std::string file = "# answers, seed 42\n\n";
  for (const std::string& a : answers) file += a + "\n";
  options_.answers_file = write("answers.txt", file);
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(run_fixture(progress), 0) << out_.str();
  }
  const std::string text = flat(out_.str());
  EXPECT_TRUE(contains(text, "Score: 1/3")) << text;
  EXPECT_TRUE(contains(text, "Seed 42")) << text;
  EXPECT_TRUE(contains(text, "✗ wrong")) << text;
  EXPECT_TRUE(contains(text, "– skipped")) << text;
  EXPECT_TRUE(contains(text, "grade the step to compare")) << text;
  EXPECT_TRUE(contains(text, "(a number, in floats)")) << text;

  // A fresh Progress reads what the command saved.
  const driver::Progress reread(progress_path());
  const auto record = reread.quiz_score(lesson().id);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->score, 1);
  EXPECT_EQ(record->total, 3);
  EXPECT_EQ(record->attempts, 1);
  EXPECT_FALSE(record->last_taken.empty());
  EXPECT_EQ(reread.prediction(lesson().id, "guess"), 20);
}

// The real quizzes, by the short forms a student types, answered right.
TEST_F(QuizCommand, EveryReadyLessonsQuizScoresFullWithTheRightAnswers) {
  for (const course::Lesson& l : ready_lessons()) {
    SCOPED_TRACE(l.id);
    out_.str("");
    options_.answers = right_answers(test_fixture::quiz_path(l.id), 42);
    driver::Progress progress(progress_path());
    ASSERT_EQ(driver::run_quiz_command(manifest_, l.short_name(), options_, progress), 0)
        << out_.str();
    const int n = load_quiz(l.id).scored_count();
    EXPECT_TRUE(
        contains(out_.str(), "Score: " + std::to_string(n) + "/" + std::to_string(n) + " (100%)"))
        << out_.str();
    EXPECT_FALSE(contains(out_.str(), "✗ wrong"));
    EXPECT_EQ(progress.quiz_score(l.id)->score, n);
  }
}

TEST_F(QuizCommand, PredictionIsComparedWithTheStoredMeasurement) {
  driver::Progress progress(progress_path());
  course::LessonReport report;
  report.id = lesson().id;
  course::StepReport step;
  step.name = lesson().steps.front().name;
  step.status = course::StepStatus::pass;
  step.speed = course::SpeedFigures{};
  step.speed->ratio = 0.153;
  report.steps.push_back(step);
  progress.update(report, "2025-01-01T00:00:00Z");
  ASSERT_NEAR(progress.fraction(lesson().id, step.name), 0.153, 1e-12);

  options_.answers = right_answers(quiz_file_, 42);
  ASSERT_EQ(run_fixture(progress), 0);
  const std::string text = flat(out_.str());
  EXPECT_TRUE(contains(text, "Measured on your GPU: 15.3%")) << text;
  EXPECT_TRUE(contains(text, "4.7 points below your estimate")) << text;
}

TEST_F(QuizCommand, InteractiveThroughAStream) {
  const std::vector<std::string> answers = right_answers(quiz_file_, 42);
  std::string typed = "\nthe second\n";  // an empty line and a non-letter are asked again
  for (const std::string& a : answers) typed += a + "\n";
  std::istringstream in(typed);
  options_.in = &in;
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(run_fixture(progress), 0) << out_.str();
    // A second attempt, all skipped: a preview, not recorded.
    std::istringstream in2("-\n-\n-\n-\n");
    options_.in = &in2;
    ASSERT_EQ(run_fixture(progress), 0);
    // A third, one answered wrong: recorded, and the best attempt stays.
    std::istringstream in3("a\n-\n-\n-\n");
    options_.in = &in3;
    ASSERT_EQ(run_fixture(progress), 0);
  }
  const std::string text = flat(out_.str());
  EXPECT_TRUE(contains(text, "type an answer, or - to skip")) << text;
  EXPECT_TRUE(contains(text, "type a letter from a to c")) << text;
  EXPECT_TRUE(contains(text, "Score: 3/3")) << text;
  EXPECT_TRUE(contains(text, "Score: 0/3 (0%). Every question was skipped: no score recorded"))
      << text;
  EXPECT_TRUE(contains(text,
                       "A retry: an earlier attempt showed the answers, so the course map "
                       "keeps your first score, 3/3 (best of 2 attempts: 3/3)"))
      << text;
  const auto record = driver::Progress(progress_path()).quiz_score(lesson().id);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->score, 0);
  EXPECT_EQ(record->best_score, 3);
  EXPECT_EQ(record->attempts, 2);
}

TEST_F(QuizCommand, EndOfInputStopsWithoutRecording) {
  std::istringstream in("a\n");
  options_.in = &in;
  driver::Progress progress(progress_path());
  EXPECT_EQ(run_fixture(progress), 0);
  EXPECT_TRUE(contains(out_.str(), "Quiz stopped at question 2 of 4")) << out_.str();
  EXPECT_TRUE(contains(out_.str(), "the answers shown so far make your next attempt a retry"))
      << out_.str();
  EXPECT_FALSE(progress.quiz_score(lesson().id));
  // No score, but the answer it showed is remembered.
  EXPECT_TRUE(driver::Progress(progress_path()).answers_shown(lesson().id));
}

// Issue 22, item 9: skipping every question printed every answer and recorded nothing; replaying
// the printed seed then recorded full marks, as if at the first try.
TEST_F(QuizCommand, APreviewThatSkippedEverythingMakesTheNextAttemptARetry) {
  options_.answers = {"-", "-", "-", "-"};
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(run_fixture(progress), 0) << out_.str();
  }
  EXPECT_TRUE(contains(flat(out_.str()), "It is y.")) << out_.str();  // the answers were shown
  EXPECT_TRUE(contains(flat(out_.str()), "your next attempt is recorded as a retry")) << out_.str();
  const driver::Progress after_preview(progress_path());
  EXPECT_FALSE(after_preview.quiz_score(lesson().id));
  EXPECT_TRUE(after_preview.answers_shown(lesson().id));

  out_.str("");
  options_.answers = right_answers(quiz_file_, 42);  // the printed seed, replayed
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(run_fixture(progress), 0) << out_.str();
  }
  EXPECT_TRUE(contains(flat(out_.str()), "Score: 3/3 (100%). A retry")) << out_.str();
  const auto record = driver::Progress(progress_path()).quiz_score(lesson().id);
  ASSERT_TRUE(record);
  EXPECT_EQ(record->best_score, 3);
  EXPECT_FALSE(record->has_first);
  EXPECT_EQ(driver::quiz_summary(*record), "quiz 3/3 (retry)");
}

// The honest first attempt is what the map shows; a better retry is shown as one.
TEST_F(QuizCommand, TheFirstHonestAttemptIsTheRecordedScore) {
  std::vector<std::string> answers = right_answers(quiz_file_, 42);
  answers[0] = answers[0] == "a" ? "b" : "a";
  answers[1] = "-";
  options_.answers = answers;  // 1 of 3
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(run_fixture(progress), 0) << out_.str();
  }
  options_.answers = right_answers(quiz_file_, 42);  // 3 of 3, having seen the answers
  {
    driver::Progress progress(progress_path());
    ASSERT_EQ(run_fixture(progress), 0) << out_.str();
  }
  const auto record = driver::Progress(progress_path()).quiz_score(lesson().id);
  ASSERT_TRUE(record);
  EXPECT_TRUE(record->has_first);
  EXPECT_EQ(record->first_score, 1);
  EXPECT_EQ(record->best_score, 3);
  EXPECT_EQ(driver::quiz_summary(*record), "quiz 1/3, 3/3 on a retry");
  EXPECT_TRUE(contains(flat(out_.str()), "keeps your first score, 1/3")) << out_.str();
}

TEST_F(QuizCommand, UsageErrors) {
  driver::Progress progress(progress_path());
  auto run = [&](const std::string& spec) {
    out_.str("");
    return driver::run_quiz_command(manifest_, spec, options_, progress);
  };
  manifest_.lessons.push_back(test_fixture::planned_lesson());  // no quiz yet
  const course::Lesson* planned = &manifest_.lessons.back();
  const std::string id = lesson().id;
  options_.answers = {"a"};
  EXPECT_EQ(run("nosuchlesson"), 2);
  EXPECT_TRUE(contains(out_.str(), "no lesson 'nosuchlesson'")) << out_.str();
  EXPECT_EQ(run(planned->id), 2);
  EXPECT_TRUE(contains(out_.str(), planned->id + " has no quiz yet")) << out_.str();
  EXPECT_TRUE(contains(out_.str(), "Lessons with a quiz: " + id)) << out_.str();
  EXPECT_EQ(run(id + "." + lesson().steps.front().name), 2);
  EXPECT_TRUE(contains(out_.str(), "quizzes are per lesson")) << out_.str();
  EXPECT_EQ(run(id), 2);  // one answer for many questions
  EXPECT_TRUE(contains(out_.str(), "--answer gives 1 answer, but the quiz of " + id + " has"))
      << out_.str();

  options_.answers.clear();
  options_.answers_file = (dir_ / "missing.txt").string();
  EXPECT_EQ(run(id), 2);
  EXPECT_TRUE(contains(out_.str(), "cannot read the answers file")) << out_.str();
  options_.answers_file = write("short.txt", "a\nb\n");
  EXPECT_EQ(run(id), 2);
  EXPECT_TRUE(contains(out_.str(), "gives 2 answers")) << out_.str();
  options_.answers = {"a"};
  EXPECT_EQ(run(id), 2);
  EXPECT_TRUE(contains(out_.str(), "not both")) << out_.str();
  EXPECT_FALSE(progress.quiz_score(id));
}

// The letter forms check() reads, in one place for it and for the refusal without --seed.
TEST(QuizCheck, ChoiceByLetter) {
  for (const std::string b : {"b", "B", "b)", "b.", "(b)"})
    EXPECT_EQ(course::quiz::choice_by_letter(b, 3), 1) << b;
  for (const std::string no : {"d", "y", "-", "", "bb", "(b", "1"})
    EXPECT_EQ(course::quiz::choice_by_letter(no, 3), -1) << no;
}

// A fresh student's trial: letters given without --seed were scored against a choice order never
// shown, and the attempt recorded as the first. Without a seed an answer to a shuffled or drawn
// question is refused, nothing recorded; skipping those questions ("-") needs no seed.
TEST_F(QuizCommand, LettersWithoutASeedAreRefused) {
  options_.seed = 0;
  options_.answers = right_answers(quiz_file_, 42);
  {
    driver::Progress progress(progress_path());
    EXPECT_EQ(run_fixture(progress), 2) << out_.str();
  }
  EXPECT_TRUE(contains(flat(out_.str()), "answer 1 (" + options_.answers[0] +
                                             ") picks a choice by its letter, and the choices are "
                                             "shuffled per attempt"))
      << out_.str();
  EXPECT_TRUE(contains(flat(out_.str()), "Give the --seed of the attempt you read")) << out_.str();
  EXPECT_FALSE(driver::Progress(progress_path()).quiz_score(lesson().id));
  EXPECT_FALSE(driver::Progress(progress_path()).answers_shown(lesson().id));
  for (const std::string letter : {"(a)", "c)", "b."}) {
    out_.str("");
    options_.answers[0] = letter;
    driver::Progress progress(progress_path());
    EXPECT_EQ(run_fixture(progress), 2) << letter << ": " << out_.str();
  }

  // A choice's text and a skip do not depend on the order: scored without a seed.
  out_.str("");
  options_.answers = std::vector<std::string>(options_.answers.size(), "-");
  options_.answers[0] = "y";  // the text of the right choice of "Pick y."
  {
    driver::Progress progress(progress_path());
    EXPECT_EQ(run_fixture(progress), 0) << out_.str();
  }
  EXPECT_TRUE(contains(flat(out_.str()), "Score: 1/3")) << out_.str();
}

TEST_F(QuizCommand, MalformedQuizFileIsAnInternalError) {
  driver::Progress progress(progress_path());
  options_.answers = {"a"};
  EXPECT_EQ(driver::run_quiz_file(manifest_, lesson(), write("bad.json", "{\"schema\": 1,"),
                                  options_, progress),
            5);
  EXPECT_TRUE(contains(out_.str(), "the quiz file is malformed")) << out_.str();
  out_.str("");
  EXPECT_EQ(driver::run_quiz_file(manifest_, lesson(),
                                  write("other.json", test_fixture::quiz_text(kChoice, "99_other")),
                                  options_, progress),
            5);
  EXPECT_TRUE(contains(out_.str(), "belongs to " + lesson().id)) << out_.str();
  out_.str("");
  options_.answers = right_answers(write("good.json", quiz_text(kChoice)), 42);
  EXPECT_EQ(
      driver::run_quiz_file(manifest_, lesson(), (dir_ / "good.json").string(), options_, progress),
      0);
  EXPECT_TRUE(contains(out_.str(), "Score: 1/1 (100%)")) << out_.str();
}

TEST(QuizProgress, KeepsTheBestAttemptByFraction) {
  const fs::path p =
      fs::temp_directory_path() / ("grader-quiz-progress-" + std::to_string(::getpid()) + ".json");
  fs::remove(p);
  const std::string lesson = "NN_lesson";
  driver::Progress progress(p.string());
  EXPECT_FALSE(progress.quiz_score(lesson));
  EXPECT_LT(progress.prediction(lesson, "predict-naive"), 0);
  progress.set_quiz_score(lesson, 3, 4, "t1", true);
  progress.set_quiz_score(lesson, 5, 8, "t2", false);  // 62.5% < 75%: not the best
  auto s = progress.quiz_score(lesson);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->score, 5);
  EXPECT_EQ(s->total, 8);
  EXPECT_EQ(s->best_score, 3);
  EXPECT_EQ(s->best_total, 4);
  EXPECT_EQ(s->attempts, 2);
  EXPECT_EQ(s->last_taken, "t2");
  EXPECT_TRUE(s->has_first);
  EXPECT_EQ(s->first_score, 3);
  EXPECT_EQ(s->first_total, 4);
  progress.set_quiz_score(lesson, 7, 8, "t3", false);
  EXPECT_EQ(progress.quiz_score(lesson)->best_score, 7);
  EXPECT_EQ(progress.quiz_score(lesson)->first_score, 3);  // the first stays the first
  progress.set_prediction(lesson, "predict-naive", lesson, "naive", 25, "t3");
  EXPECT_EQ(progress.prediction(lesson, "predict-naive"), 25);
  // Quiz records do not disturb the step records.
  EXPECT_FALSE(progress.step_passed(lesson, "naive"));
  EXPECT_LT(progress.fraction(lesson, "naive"), 0);
  ASSERT_TRUE(progress.save());
  EXPECT_EQ(driver::Progress(p.string()).quiz_score(lesson)->attempts, 3);
  fs::remove(p);
}

}  // namespace

namespace {

using course::quiz::Instance;
using course::quiz::instantiate;
using course::quiz::Kind;
using course::quiz::Question;

// Choices are shown in an order drawn from the attempt's seed: the same seed, the same order;
// over seeds the right answer takes every position.
TEST(QuizShuffle, ChoicesAreShuffledPerAttemptAndReproducible) {
  Question q;
  q.id = "pick";
  q.kind = Kind::choice;
  q.choices = {"w", "x", "y", "z"};
  q.answer_index = 2;
  std::set<int> positions;
  std::set<std::vector<std::string>> orders;
  for (unsigned long long seed = 1; seed <= 64; ++seed) {
    const Instance inst = instantiate(q, seed);
    ASSERT_EQ(inst.choices.size(), 4u);
    EXPECT_EQ(inst.choices[inst.answer_index], "y");
    EXPECT_EQ(std::set<std::string>(inst.choices.begin(), inst.choices.end()),
              (std::set<std::string>{"w", "x", "y", "z"}));
    EXPECT_EQ(instantiate(q, seed).choices, inst.choices) << "seed " << seed;
    EXPECT_EQ(check(inst, std::string(1, static_cast<char>('a' + inst.answer_index))).correct,
              true);
    positions.insert(inst.answer_index);
    orders.insert(inst.choices);
  }
  EXPECT_EQ(positions, (std::set<int>{0, 1, 2, 3}));
  EXPECT_GT(orders.size(), 12u);
}

// Typing the same letter for every choice question of a real quiz scores them all only by chance
// (about 4^-questions of the attempts), not in every attempt as when the files' order was shown.
TEST(QuizShuffle, OneLetterForEveryQuestionRarelyScoresThemAll) {
  constexpr int kSeeds = 20;
  for (const course::Lesson& lesson : test_fixture::ready_lessons()) {
    const course::quiz::Quiz quiz = test_fixture::load_quiz(lesson.id);
    int choices = 0;
    for (const Question& q : quiz.questions) choices += q.kind == Kind::choice;
    if (choices < 3) continue;
    for (char letter = 'a'; letter <= 'd'; ++letter) {
      int full = 0;
      for (unsigned long long seed = 1; seed <= kSeeds; ++seed) {
        int right = 0;
        for (const Question& q : quiz.questions)
          if (q.kind == Kind::choice)
            right += check(instantiate(q, seed), std::string(1, letter)).correct;
        full += right == choices;
      }
      EXPECT_LE(full, 2) << lesson.id << ": always '" << letter << "' scored every choice question "
                         << "in " << full << " of " << kSeeds << " attempts";
    }
  }
}

// In the files too: no position holds the answer of more than half of a quiz's choice questions.
TEST(QuizFiles, RightAnswersAreSpreadOverThePositions) {
  for (const course::Lesson& lesson : test_fixture::ready_lessons()) {
    std::map<int, int> at;
    int choices = 0;
    for (const Question& q : test_fixture::load_quiz(lesson.id).questions)
      if (q.kind == Kind::choice) {
        ++at[q.answer_index];
        ++choices;
      }
    for (const auto& [position, count] : at)
      EXPECT_LE(2 * count, choices) << lesson.id << ": " << count << " of " << choices
                                    << " answers are " << static_cast<char>('a' + position);
  }
}

}  // namespace
