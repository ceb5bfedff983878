/// @file quiz.hpp
/// @brief Self-check quizzes (`grader quiz LESSON`): the file format lessons/LESSON/quiz.json,
/// its validation, the questions of one attempt (choices shuffled and parametric questions drawn
/// from the attempt's seed), and the checking of one typed answer.
///
/// A quiz file is one JSON object, meant to be read and reviewed as text:
///
/// ```json
/// { "schema": 1, "lesson": "NN_name", "title": "...",
///   "questions": [
///     { "id": "sector-size", "kind": "choice", "prompt": "...",
///       "choices": ["4 B", "32 B", "128 B"], "answer": "b", "explain": "..." },
///     { "id": "model-stride-2", "kind": "numeric", "prompt": "...",
///       "answer": 66.7, "tolerance": 0.5, "unit": "%", "explain": "..." },
///     { "id": "predict-naive", "kind": "prediction", "prompt": "...",
///       "measured": { "lesson": "NN_name", "step": "naive" }, "explain": "..." } ] }
/// ```
///
/// Kinds:
/// - **choice**: `choices` (2 to 8 distinct strings) and `answer`, the letter of the right one in
///   the file's order. Each attempt shows the choices in an order drawn from its seed (so the
///   position of the right answer teaches nothing), as a) b) c) ... Accepted answers: the letter
///   shown ("b", "B", "b)", "(b)") or the choice's full text.
/// - **numeric**: `answer` (a number), optional `tolerance` (absolute, >= 0, default 0) and `unit`
///   (shown with the prompt). Accepted: a number, optionally with thousands commas ("1,024") and
///   a unit word or "%" after it ("1024 B", "12.5%").
/// - **prediction**: `measured` names a lesson step ({"lesson": ..., "step": ...}) whose fraction
///   of its ceiling (copy or read rung, rung, or library call) the grader stores. The student gives
///   an estimate in percent; it is not scored, and the explanation compares it with the measurement
///   when there is one.
/// - **kinds a lesson registers** (course/extensions.hpp, from lessons/NN_name/tools/): parametric
///   questions whose parameters are drawn from the attempt's seed and whose answer (a number) the
///   lesson's code computes; the keys they take are the lesson's. Once registered, a kind may be
///   used by any lesson's quiz.
///
/// Every question has a unique `id` (letters, digits, '-' and '_'), a `kind`, a `prompt` and an
/// `explain` text shown after the answer. Unknown keys are errors, so a misspelt "tolerence" does
/// not pass unnoticed.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "course/manifest.hpp"

namespace course::quiz {

/// A quiz file that cannot be read or breaks the format. what() names the file and lists every
/// problem found, one per line, each naming the question ("question 3 (stride-sectors): ...").
struct QuizError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a question asks for.
enum class Kind {
  choice,     ///< pick one of several answers
  numeric,    ///< a number, right within a tolerance
  generated,  ///< a kind a lesson registers: a number for parameters drawn per attempt
  prediction  ///< an estimate in percent of the ceiling; compared, never scored
};

/// One draw of a question of a registered kind: everything one attempt shows and checks.
struct DrawnQuestion {
  std::string prompt;       ///< the question, parameters filled in
  std::string explain;      ///< shown after the answer, parameters filled in
  double answer = 0;        ///< the right number for the drawn parameters
  double tolerance = 0;     ///< |given - answer| <= tolerance is right
  std::string unit;         ///< how the answer is written: "sectors", "B", "%", ...
  std::string answer_form;  ///< shown under the prompt, e.g. "(a number of sectors)"
  /// How the answer comes about for these parameters, shown after the verdict ("Sector model:
  /// lane i reads a[i*2] ...: 8 sectors"). May be empty.
  std::string working;
  /// A picture shown after a wrong answer (colour when the argument is true); may be empty.
  std::function<std::string(bool color)> illustrate;
};

/// A parsed question of a registered kind: it draws the attempt's instance.
class QuestionGenerator {
 public:
  virtual ~QuestionGenerator() = default;
  /// Draws one instance. `seed` is already particular to the attempt and the question (the
  /// attempt's seed mixed with the question id); the same seed must give the same instance.
  virtual DrawnQuestion draw(std::uint64_t seed) const = 0;
};

/// One question as written in the file.
struct Question {
  std::string id;            ///< unique within the quiz, e.g. "stride-sectors"
  Kind kind = Kind::choice;  ///< what it asks for; decides which fields below apply
  std::string kind_name;     ///< the "kind" as written: "choice", "numeric", "sectors", ...
  std::string prompt;        ///< the question; for a generated kind, a template
  std::string explain;       ///< shown after the answer; for a generated kind, a template too
  // choice
  std::vector<std::string> choices;  ///< in the file's order (a, b, c, ...)
  int answer_index = -1;             ///< index of the right choice in the file's order
  // numeric
  double answer = 0;     ///< the right number
  double tolerance = 0;  ///< |given - answer| <= tolerance is right
  std::string unit;      ///< shown after the prompt, e.g. "GB/s"
  // generated
  std::shared_ptr<const QuestionGenerator> generator;  ///< the registered kind's parse result
  // prediction
  std::string measured_lesson;  ///< the lesson whose step is measured
  std::string measured_step;    ///< the step, e.g. "naive"

  /// True for the kinds that count towards the score (all but prediction).
  bool scored() const { return kind != Kind::prediction; }
};

/// A lesson's quiz.
struct Quiz {
  int schema = 0;                   ///< format version; this grader reads 1
  std::string lesson;               ///< the lesson id it belongs to
  std::string title;                ///< one line shown above the questions
  std::vector<Question> questions;  ///< in the order they are asked

  /// Parses and validates quiz JSON text; `origin` names it in error messages.
  /// @throws QuizError listing every problem found (not JSON, wrong schema, missing or unknown
  ///   keys, bad values, an unknown kind, what a registered kind rejects, ...).
  static Quiz parse(const std::string& text, const std::string& origin);
  /// Reads and parses `path`. @throws QuizError when it cannot be read or is malformed.
  static Quiz load(const std::string& path);

  /// Questions that count towards the score.
  int scored_count() const;
};

/// Problems of a well-formed quiz against the course manifest: the lesson is unknown, or a
/// prediction names a lesson or step the manifest does not have. Empty when consistent.
std::vector<std::string> problems(const Quiz& quiz, const Manifest& manifest);

/// One question as asked in one attempt.
struct Instance {
  Question question;    ///< the question as written in the file
  std::string prompt;   ///< with placeholders filled in
  std::string explain;  ///< with placeholders filled in
  /// choice: the choices in the order this attempt shows them (a, b, c, ...)
  std::vector<std::string> choices;
  int answer_index = -1;    ///< choice: index of the right one in `choices`
  double answer = 0;        ///< numeric and generated: the right number
  double tolerance = 0;     ///< numeric and generated: accepted distance from `answer`
  std::string unit;         ///< how the answer is written: "sectors", "B", "%", ...
  std::string answer_form;  ///< what kind of answer to type, e.g. "(a letter, a to d)"
  std::string working;      ///< generated: how the answer comes about (see DrawnQuestion)
  /// generated: a picture for a wrong answer (see DrawnQuestion); empty for the other kinds
  std::function<std::string(bool color)> illustrate;
  std::uint64_t draw_seed = 0;  ///< the seed the question's shuffle or draw used
};

/// Question `q` as asked in an attempt with `seed`: choices shuffled, a generated kind drawn. The
/// same seed and question id always give the same instance; different seeds usually give
/// different ones (the seed is mixed with the question id, so questions differ within an
/// attempt). Numeric and prediction questions ignore the seed.
Instance instantiate(const Question& q, unsigned long long seed);

/// The outcome of checking one answer.
struct Verdict {
  bool understood = false;      ///< the answer could be read (or was "-", a skip)
  bool skipped = false;         ///< the answer was "-" (or empty in a non-interactive run)
  bool scored = true;           ///< counts towards the score (false for predictions)
  bool correct = false;         ///< scored, understood and right
  std::optional<double> value;  ///< the number read (numeric, generated, prediction)
  /// When not understood: what a valid answer looks like, e.g. "type a letter from a to d (or -
  /// to skip)". Empty otherwise.
  std::string problem;
  /// For people: the verdict with the right answer, the working of a generated question, the
  /// comparison with the measurement for predictions, then the question's `explain` text.
  std::string explanation;
};

/// The choice an answer names by its letter, as check() reads it first ("b", "B", "b)", "b.",
/// "(b)"), among `choices` choices: its index, or -1 when the answer is no such letter (it may
/// then name a choice by its text, which does not depend on the shuffled order).
int choice_by_letter(const std::string& answer, int choices);

/// Checks `answer` (as typed: surrounding spaces are ignored; "-" skips) for `inst`.
/// @param inst   the question as asked (instantiate())
/// @param answer what the student typed
/// @param measured_fraction predictions only: the measured fraction of the ceiling (0..1) of the
///   question's step, or a negative value when it was never measured.
Verdict check(const Instance& inst, const std::string& answer, double measured_fraction = -1);

/// Reads a number as students type it: "12.5", "-3", "1,024", "1e3", "12.5%", "1024 B",
/// "32 sectors". @return no value for anything else (two numbers, words before the number, nan).
std::optional<double> parse_number(const std::string& text);

/// Formats a number for people: integers with thousands commas ("1,024"), others with up to six
/// significant digits ("66.6667").
std::string format_number(double v);

/// Formats a percentage (0..100) with at most one decimal: "100%", "12.5%", "16.7%". Never rounds
/// a value below 100 up to "100%".
std::string format_percent(double percent);

// ---- for the kinds lessons register ---------------------------------------------------------

/// A small random generator that gives the same numbers on every platform (splitmix64;
/// std::uniform_int_distribution does not), for drawing a question's parameters.
class Random {
 public:
  /// Starts the sequence from `seed` (the same seed, the same numbers).
  explicit Random(std::uint64_t seed) : state_(seed) {}
  /// The next 64 random bits.
  std::uint64_t next();
  /// One of `values`, uniformly. @pre `values` is not empty.
  template <typename T>
  const T& pick(const std::vector<T>& values) {
    return values[next() % values.size()];
  }

 private:
  std::uint64_t state_;
};

/// Fills "{name}" placeholders of a question's text from `values`; "{{" and "}}" are literal
/// braces. Names used are added to `used` and problems (an unknown name, an unbalanced brace)
/// appended to `errors`, when they are given.
std::string fill_placeholders(const std::string& text,
                              const std::map<std::string, std::string>& values,
                              std::set<std::string>* used = nullptr,
                              std::vector<std::string>* errors = nullptr);

/// Reads the keys of one question for a parser (the core's and a registered kind's) and collects
/// problems, each prefixed with the question ("question 3 (stride-sectors): ...").
class QuestionReader {
 public:
  /// Reads `question`; problems go to `errors` prefixed with `where`.
  QuestionReader(const nlohmann::json& question, std::string where,
                 std::vector<std::string>* errors);
  /// The JSON object read (the question, or the part given to reader_for()).
  const nlohmann::json& object() const { return question_; }
  /// Where problems are reported, e.g. "question 3 (stride-sectors)".
  const std::string& where() const { return where_; }
  /// Records a problem of this question.
  void error(const std::string& what) const;
  /// True when the question has `key`.
  bool has(const char* key) const;
  /// Reads string `key` into `out`. A required key must be present and not blank.
  /// @return false (a problem recorded when it matters) when it could not be read.
  bool string(const char* key, std::string& out, bool required = true) const;
  /// Reads finite number `key` into `out`. @return false (a problem recorded) when it is not one.
  bool number(const char* key, double& out) const;
  /// Reads an optional `tolerance`: a number of 0 or more. Keeps `out` when the key is absent.
  void tolerance(double& out) const;
  /// A reader for the object under `key`, reported as "WHERE, KEY".
  QuestionReader nested(const char* key) const;
  /// A reader for another part of the question (e.g. an object under one of its keys) whose
  /// problems are reported under the question's own name. `part` must outlive the reader.
  QuestionReader reader_for(const nlohmann::json& part) const;
  /// Records a problem for every key of the question outside `allowed`; `what` names the
  /// object ("a choice question").
  void only_keys(const std::set<std::string>& allowed, const std::string& what) const;

 private:
  const nlohmann::json& question_;
  std::string where_;
  std::vector<std::string>* errors_;
};

}  // namespace course::quiz
