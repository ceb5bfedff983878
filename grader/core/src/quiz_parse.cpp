// Reading and validating quiz files (course/quiz.hpp): the common keys, the built-in kinds, and
// the hand-over to a kind a lesson registered (course/extensions.hpp).
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "course/extensions.hpp"
#include "course/quiz.hpp"
#include "quiz_internal.hpp"

namespace course::quiz {

using detail::letter;
using detail::lower;
using detail::trim;
using nlohmann::json;

constexpr int kMaxChoices = 8;

// ---- QuestionReader ---------------------------------------------------------------------------

QuestionReader::QuestionReader(const json& question, std::string where,
                               std::vector<std::string>* errors)
    : question_(question), where_(std::move(where)), errors_(errors) {}

void QuestionReader::error(const std::string& what) const {
  errors_->push_back(where_ + ": " + what);
}

bool QuestionReader::has(const char* key) const {
  return question_.contains(key);
}

bool QuestionReader::string(const char* key, std::string& out, bool required) const {
  if (!has(key)) {
    if (required) error(fmt::format("\"{}\" is missing", key));
    return false;
  }
  const json& v = question_[key];
  if (!v.is_string()) {
    error(fmt::format("\"{}\" must be a string (got {})", key, v.type_name()));
    return false;
  }
  out = v.get<std::string>();
  if (required && trim(out).empty()) {
    error(fmt::format("\"{}\" is empty", key));
    return false;
  }
  return true;
}

bool QuestionReader::number(const char* key, double& out) const {
  const json& v = question_[key];
  if (!v.is_number()) {
    error(fmt::format("\"{}\" must be a number (got {})", key, v.type_name()));
    return false;
  }
  out = v.get<double>();
  if (!std::isfinite(out)) {
    error(fmt::format("\"{}\" must be a finite number", key));
    return false;
  }
  return true;
}

void QuestionReader::tolerance(double& out) const {
  if (has("tolerance") && number("tolerance", out) && out < 0)
    error(fmt::format("\"tolerance\" must be 0 or more (got {})", out));
}

QuestionReader QuestionReader::nested(const char* key) const {
  return QuestionReader(question_[key], where_ + ", " + key, errors_);
}

QuestionReader QuestionReader::reader_for(const json& part) const {
  return QuestionReader(part, where_, errors_);
}

void QuestionReader::only_keys(const std::set<std::string>& allowed,
                               const std::string& what) const {
  for (const auto& [key, value] : question_.items()) {
    if (allowed.count(key)) continue;
    std::string list;
    for (const std::string& k : allowed) list += (list.empty() ? "" : ", ") + k;
    error(fmt::format("unknown key \"{}\" in {} (allowed: {})", key, what, list));
  }
}

namespace {

const std::set<std::string> kCommonKeys = {"id", "kind", "prompt", "explain"};

std::set<std::string> with_common(std::set<std::string> keys) {
  keys.insert(kCommonKeys.begin(), kCommonKeys.end());
  return keys;
}

bool is_id(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_';
  });
}

// ---- the built-in kinds -----------------------------------------------------------------------

void parse_choices(const QuestionReader& r, Question& out) {
  if (!r.has("choices") || !r.object()["choices"].is_array()) {
    r.error("\"choices\" must be an array of strings");
    return;
  }
  std::set<std::string> seen;
  for (const json& c : r.object()["choices"]) {
    if (!c.is_string() || trim(c.get<std::string>()).empty()) {
      r.error(fmt::format("every choice must be a non-empty string (got {})", c.dump()));
      continue;
    }
    const std::string text = c.get<std::string>();
    if (!seen.insert(lower(trim(text))).second)
      r.error(fmt::format("choice \"{}\" appears twice", text));
    out.choices.push_back(text);
  }
  const int n = static_cast<int>(r.object()["choices"].size());
  if (n < 2 || n > kMaxChoices)
    r.error(fmt::format("a choice question needs 2 to {} choices (got {})", kMaxChoices, n));
}

void parse_choice(const QuestionReader& r, Question& out) {
  r.only_keys(with_common({"choices", "answer"}), "a choice question");
  parse_choices(r, out);
  if (!r.has("answer")) {
    r.error("\"answer\" is missing (the letter of the right choice, e.g. \"b\")");
    return;
  }
  const json& a = r.object()["answer"];
  const std::string given = a.is_string() ? lower(trim(a.get<std::string>())) : "";
  const int n = std::max(static_cast<int>(out.choices.size()), 1);
  if (given.size() != 1 || given[0] < 'a' || given[0] >= letter(n)) {
    r.error(fmt::format("\"answer\" must be the letter of a choice, a to {} (got {})",
                        letter(n - 1), a.dump()));
    return;
  }
  out.answer_index = given[0] - 'a';
}

void parse_numeric(const QuestionReader& r, Question& out) {
  r.only_keys(with_common({"answer", "tolerance", "unit"}), "a numeric question");
  if (!r.has("answer"))
    r.error("\"answer\" is missing (a number)");
  else
    r.number("answer", out.answer);
  r.tolerance(out.tolerance);
  r.string("unit", out.unit, /*required=*/false);
}

void parse_prediction(const QuestionReader& r, Question& out) {
  r.only_keys(with_common({"measured"}), "a prediction question");
  if (!r.has("measured") || !r.object()["measured"].is_object()) {
    r.error(
        "\"measured\" must be an object naming a step, e.g. {\"lesson\": \"NN_name\", "
        "\"step\": \"naive\"}");
    return;
  }
  const QuestionReader m = r.nested("measured");
  m.only_keys({"lesson", "step"}, "\"measured\"");
  m.string("lesson", out.measured_lesson);
  m.string("step", out.measured_step);
}

std::string kind_list() {
  std::string list = "choice, numeric, prediction";
  for (const std::string& name : ext::quiz_kind_names())
    if (name != "choice" && name != "numeric" && name != "prediction") list += ", " + name;
  return list;
}

// A kind a lesson registered. False (a problem recorded) when the name is no kind.
bool parse_registered(const QuestionReader& r, const std::string& kind, Question& out) {
  const ext::QuizKindInfo* info = ext::find_quiz_kind(kind);
  if (!info) {
    const auto names = ext::quiz_kind_names();
    const bool twice = std::count(names.begin(), names.end(), kind) > 0;
    r.error(twice ? fmt::format("kind \"{}\" is registered twice by the lessons' tools", kind)
                  : fmt::format("\"kind\" must be one of {} (got \"{}\")", kind_list(), kind));
    return false;
  }
  out.kind = Kind::generated;
  r.only_keys(with_common(info->keys), fmt::format("a {} question", kind));
  out.generator = info->parse(r, out.prompt, out.explain);
  return true;
}

// One question: false when it is so broken that it is left out (its problems are recorded).
bool parse_question(const QuestionReader& r, Question& out) {
  std::string kind;
  r.string("prompt", out.prompt);
  r.string("explain", out.explain);
  if (!r.string("kind", kind)) return false;
  out.kind_name = kind;
  if (kind == "choice") {
    out.kind = Kind::choice;
    parse_choice(r, out);
  } else if (kind == "numeric") {
    out.kind = Kind::numeric;
    parse_numeric(r, out);
  } else if (kind == "prediction") {
    out.kind = Kind::prediction;
    parse_prediction(r, out);
  } else {
    return parse_registered(r, kind, out);
  }
  return true;
}

// Reads the id first, so that every later problem names the question; returns how problems
// name it ("question 3 (stride-sectors)").
std::string read_id(const json& q, int number, std::set<std::string>& ids,
                    std::vector<std::string>& errors, std::string& id) {
  std::string where = fmt::format("question {}", number);
  const QuestionReader r(q, where, &errors);
  if (!r.string("id", id)) return where;
  where += fmt::format(" ({})", id);
  if (!is_id(id))
    errors.push_back(where + ": \"id\" may hold only letters, digits, '-' and '_'");
  else if (!ids.insert(id).second)
    errors.push_back(where + ": this id is used by an earlier question");
  return where;
}

void parse_header(const QuestionReader& top, Quiz& quiz) {
  const json& j = top.object();
  top.only_keys({"schema", "lesson", "title", "questions"}, "the quiz");
  if (!j.contains("schema") || !j["schema"].is_number_integer() || j["schema"].get<int>() != 1)
    top.error(fmt::format("\"schema\" must be 1 (got {})",
                          j.contains("schema") ? j["schema"].dump() : "nothing"));
  else
    quiz.schema = 1;
  top.string("lesson", quiz.lesson);
  top.string("title", quiz.title, /*required=*/false);
  if (!j.contains("questions") || !j["questions"].is_array() || j["questions"].empty())
    top.error("\"questions\" must be a non-empty array");
}

}  // namespace

Quiz Quiz::parse(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw QuizError(fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
  if (!j.is_object()) throw QuizError(fmt::format("{}: a quiz must be a JSON object", origin));
  std::vector<std::string> errors;
  Quiz quiz;
  parse_header(QuestionReader(j, "quiz", &errors), quiz);
  std::set<std::string> ids;
  int number = 0;
  const json questions = j.value("questions", json::array());
  for (const json& q : questions.is_array() ? questions : json::array()) {
    ++number;
    if (!q.is_object()) {
      errors.push_back(fmt::format("question {}: must be an object", number));
      continue;
    }
    Question out;
    const QuestionReader r(q, read_id(q, number, ids, errors, out.id), &errors);
    if (parse_question(r, out)) quiz.questions.push_back(std::move(out));
  }
  if (!errors.empty()) {
    std::string msg =
        fmt::format("{}: {} problem{}:", origin, errors.size(), errors.size() == 1 ? "" : "s");
    for (const std::string& e : errors) msg += "\n  " + e;
    throw QuizError(msg);
  }
  return quiz;
}

Quiz Quiz::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw QuizError(fmt::format("{}: cannot be read", path));
  std::stringstream ss;
  ss << in.rdbuf();
  return parse(ss.str(), path);
}

int Quiz::scored_count() const {
  return static_cast<int>(std::count_if(questions.begin(), questions.end(),
                                        [](const Question& q) { return q.scored(); }));
}

std::vector<std::string> problems(const Quiz& quiz, const Manifest& manifest) {
  std::vector<std::string> out;
  if (!manifest.find(quiz.lesson))
    out.push_back(fmt::format("the quiz is for lesson \"{}\", which the manifest does not have",
                              quiz.lesson));
  int number = 0;
  for (const Question& q : quiz.questions) {
    ++number;
    if (q.kind != Kind::prediction) continue;
    const Lesson* l = manifest.find(q.measured_lesson);
    if (!l)
      out.push_back(fmt::format("question {} ({}): measured lesson \"{}\" is not in the manifest",
                                number, q.id, q.measured_lesson));
    else if (!l->find_step(q.measured_step))
      out.push_back(fmt::format("question {} ({}): lesson {} has no step \"{}\"", number, q.id,
                                l->id, q.measured_step));
  }
  return out;
}

}  // namespace course::quiz
