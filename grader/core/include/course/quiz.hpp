/// @file quiz.hpp
/// @brief Self-check quizzes (`grader quiz LESSON`): the file format lessons/LESSON/quiz.json,
/// its validation, parametric questions drawn from a seed and answered by the coalescing
/// simulator's sector model (course/sim.hpp), and the checking of one typed answer.
///
/// A quiz file is one JSON object, meant to be read and reviewed as text:
///
/// ```json
/// { "schema": 1, "lesson": "06_coalescing", "title": "...",
///   "questions": [
///     { "id": "sector-size", "kind": "choice", "prompt": "...",
///       "choices": ["4 B", "32 B", "128 B"], "answer": "b", "explain": "..." },
///     { "id": "model-stride-2", "kind": "numeric", "prompt": "...",
///       "answer": 66.7, "tolerance": 0.5, "unit": "%", "explain": "..." },
///     { "id": "stride-sectors", "kind": "sectors", "prompt": "... lane i reads {expr} ...",
///       "params": { "stride": [1, 2, 4, 8], "width": [4, 8] }, "ask": "sectors",
///       "explain": "..." },
///     { "id": "predict-naive", "kind": "prediction", "prompt": "...",
///       "measured": { "lesson": "07_transpose", "step": "naive" }, "explain": "..." } ] }
/// ```
///
/// Kinds:
/// - **choice**: `choices` (2 to 8 strings, shown as a) b) c) ...) and `answer`, the letter of the
///   right one. Accepted answers: the letter ("b", "B", "b)", "(b)") or the choice's full text.
/// - **numeric**: `answer` (a number), optional `tolerance` (absolute, >= 0, default 0) and `unit`
///   (shown with the prompt). Accepted: a number, optionally with thousands commas ("1,024") and
///   a unit word or "%" after it ("1024 B", "12.5%").
/// - **sectors**: a parametric question on one warp load `a[offset + i*stride]` (lane i, elements
///   of `width` bytes). `params` gives the values each parameter is drawn from: `stride`, `offset`,
///   `width`, `lanes` (defaults [1], [0], [4], [32]); `ask` names the quantity: `sectors`, `lines`,
///   `bytes_moved`, `bytes_used` or `efficiency_percent`; optional `tolerance` (default 0, and 0.1
///   for efficiency_percent). The answer is never written in the file: course::sim::simulate
///   computes it for the drawn parameters. `prompt` and `explain` may use the placeholders
///   {stride}, {offset}, {width}, {lanes}, {type} (the C type of that width: char, __half, float,
///   double, float4), {expr} (the load, e.g. "a[3 + i*8]"), {distance} (stride*width bytes
///   between neighbouring lanes) and {offset_bytes}; write "{{" and "}}" for literal braces. A
///   parameter with more than one value must appear in the prompt ({expr} shows stride and
///   offset, {type} shows the width).
/// - **prediction**: `measured` names a lesson step ({"lesson": ..., "step": ...}) whose fraction
///   of the copy ceiling the grader stores. The student gives an estimate in percent; it is not
///   scored, and the explanation compares it with the measurement when there is one.
///
/// Every question has a unique `id` (letters, digits, '-' and '_'), a `kind`, a `prompt` and an
/// `explain` text shown after the answer. Unknown keys are errors, so a misspelt "tolerence" does
/// not pass unnoticed.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/sim.hpp"

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
  sectors,    ///< parametric: a quantity of the sector model for drawn parameters
  prediction  ///< an estimate in percent of the ceiling; compared, never scored
};

/// The quantity a `sectors` question asks for (fields of course::sim::Result).
enum class Quantity {
  sectors,            ///< distinct 32-byte sectors the warp request touches
  lines,              ///< distinct 128-byte lines it touches
  bytes_moved,        ///< 32 B per sector
  bytes_used,         ///< distinct bytes the lanes asked for
  efficiency_percent  ///< bytes_used / bytes_moved, in percent
};

/// "sectors", "lines", "bytes_moved", "bytes_used", "efficiency_percent".
std::string to_string(Quantity q);

/// The value of `q` in a simulator result (efficiency in percent, 0..100).
double quantity_value(const sim::Result& r, Quantity q);

/// The values a `sectors` question draws its parameters from.
struct Params {
  std::vector<long long> stride{1};  ///< elements between neighbouring lanes
  std::vector<long long> offset{0};  ///< element lane 0 reads, from a 128-byte aligned base
  std::vector<int> width{4};         ///< element width in bytes: 1, 2, 4, 8 or 16
  std::vector<int> lanes{32};        ///< active lanes, 1..32
};

/// One question as written in the file.
struct Question {
  std::string id;            ///< unique within the quiz, e.g. "stride-sectors"
  Kind kind = Kind::choice;  ///< what it asks for; decides which fields below apply
  std::string prompt;        ///< the question; for `sectors`, a template with placeholders
  std::string explain;       ///< shown after the answer; for `sectors`, a template too
  // choice
  std::vector<std::string> choices;  ///< in display order (a, b, c, ...)
  int answer_index = -1;             ///< index of the right choice
  // numeric
  double answer = 0;     ///< the right number
  double tolerance = 0;  ///< numeric and sectors: |given - answer| <= tolerance is right
  std::string unit;      ///< numeric: shown after the prompt, e.g. "GB/s"
  // sectors
  Params params;                     ///< values drawn from
  Quantity ask = Quantity::sectors;  ///< the quantity asked for
  // prediction
  std::string measured_lesson;  ///< the lesson whose step is measured, e.g. "07_transpose"
  std::string measured_step;    ///< the step, e.g. "naive"

  /// True for the kinds that count towards the score (all but prediction).
  bool scored() const { return kind != Kind::prediction; }
};

/// A lesson's quiz.
struct Quiz {
  int schema = 0;                   ///< format version; this grader reads 1
  std::string lesson;               ///< the lesson id it belongs to, e.g. "07_transpose"
  std::string title;                ///< one line shown above the questions
  std::vector<Question> questions;  ///< in the order they are asked

  /// Parses and validates quiz JSON text; `origin` names it in error messages.
  /// @throws QuizError listing every problem found (not JSON, wrong schema, missing or unknown
  ///   keys, bad values, a `sectors` parameter combination the simulator rejects, ...).
  static Quiz parse(const std::string& text, const std::string& origin);
  /// Reads and parses `path`. @throws QuizError when it cannot be read or is malformed.
  static Quiz load(const std::string& path);

  /// Questions that count towards the score.
  int scored_count() const;
};

/// Problems of a well-formed quiz against the course manifest: the lesson is unknown, or a
/// prediction names a lesson or step the manifest does not have. Empty when consistent.
std::vector<std::string> problems(const Quiz& quiz, const Manifest& manifest);

/// One question as asked in one attempt: for `sectors`, the parameters drawn and the answer the
/// sector model gives for them; for the other kinds, the question as written.
struct Instance {
  Question question;                  ///< the question as written in the file
  std::string prompt;                 ///< with placeholders filled in
  std::string explain;                ///< with placeholders filled in
  std::optional<sim::Access> access;  ///< sectors: the drawn load
  std::optional<sim::Result> result;  ///< sectors: sim::simulate(*access)
  double answer = 0;                  ///< numeric and sectors: the right number
  double tolerance = 0;               ///< numeric and sectors: accepted distance from `answer`
  std::string unit;                   ///< how the answer is written: "sectors", "B", "%", ...
};

/// Draws question `q` for an attempt with `seed`. The same seed and question id always give the
/// same parameters; different seeds usually give different ones (each parameter is picked
/// uniformly from its list, per question). Non-parametric questions ignore the seed.
Instance instantiate(const Question& q, unsigned long long seed);

/// The outcome of checking one answer.
struct Verdict {
  bool understood = false;      ///< the answer could be read (or was "-", a skip)
  bool skipped = false;         ///< the answer was "-" (or empty in a non-interactive run)
  bool scored = true;           ///< counts towards the score (false for predictions)
  bool correct = false;         ///< scored, understood and right
  std::optional<double> value;  ///< the number read (numeric, sectors, prediction)
  /// When not understood: what a valid answer looks like, e.g. "type a letter from a to d (or -
  /// to skip)". Empty otherwise.
  std::string problem;
  /// For people: the verdict with the right answer, the sector model's working for `sectors`
  /// (naming stride, offset, element width and lanes), the comparison with the measurement for
  /// predictions, then the question's `explain` text.
  std::string explanation;
};

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

}  // namespace course::quiz
