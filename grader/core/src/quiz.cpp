#include "course/quiz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace course::quiz {

using nlohmann::json;

namespace {

constexpr int kMaxChoices = 8;
constexpr std::size_t kMaxCombinations = 100000;  // parameter combinations checked at load time
constexpr double kDefaultPercentTolerance = 0.1;

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

char letter(int index) {
  return static_cast<char>('a' + index);
}

// splitmix64: small, fast and the same on every platform (std::uniform_int_distribution is not).
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}

template <typename T>
T pick(const std::vector<T>& values, std::uint64_t& state) {
  return values[next_random(state) % values.size()];
}

std::string type_name(int width) {
  switch (width) {
    case 1:
      return "char";
    case 2:
      return "__half";
    case 4:
      return "float";
    case 8:
      return "double";
    case 16:
      return "float4";
    default:
      return fmt::format("{}-byte", width);
  }
}

const std::vector<std::string> kPlaceholders = {"stride", "offset", "width",    "lanes",
                                                "type",   "expr",   "distance", "offset_bytes"};

std::map<std::string, std::string> placeholder_values(const sim::Access& a) {
  return {{"stride", fmt::format("{}", a.stride)},
          {"offset", fmt::format("{}", a.offset)},
          {"width", fmt::format("{}", a.element_bytes)},
          {"lanes", fmt::format("{}", a.lanes)},
          {"type", type_name(a.element_bytes)},
          {"expr", sim::expression(a)},
          {"distance", fmt::format("{}", a.stride * a.element_bytes)},
          {"offset_bytes", fmt::format("{}", a.offset * a.element_bytes)}};
}

// Fills "{name}" placeholders; "{{" and "}}" are literal braces. Returns the names used, and
// appends to `errors` for unknown names or unbalanced braces (when `errors` is given).
std::string fill(const std::string& text, const std::map<std::string, std::string>& values,
                 std::set<std::string>* used, std::vector<std::string>* errors) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' && i + 1 < text.size() && text[i + 1] == '{') {
      out += '{';
      ++i;
    } else if (c == '}' && i + 1 < text.size() && text[i + 1] == '}') {
      out += '}';
      ++i;
    } else if (c == '{') {
      const std::size_t close = text.find('}', i);
      const std::string name = close == std::string::npos ? "" : text.substr(i + 1, close - i - 1);
      const bool identifier =
          !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char ch) {
            return std::islower(ch) || ch == '_';
          });
      if (close == std::string::npos || !identifier) {
        if (errors)
          errors->push_back("a '{' that opens no placeholder (write {{ for a literal brace)");
        out += c;
        continue;
      }
      auto it = values.find(name);
      if (it == values.end()) {
        if (errors) {
          std::string known;
          for (const std::string& k : kPlaceholders)
            known += (known.empty() ? "{" : ", {") + k + "}";
          errors->push_back(fmt::format("unknown placeholder {{{}}}; known: {}", name, known));
        }
        out += text.substr(i, close - i + 1);
      } else {
        out += it->second;
        if (used) used->insert(name);
      }
      i = close;
    } else if (c == '}') {
      if (errors)
        errors->push_back("a '}' that closes no placeholder (write }} for a literal brace)");
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string unit_of(Quantity q) {
  switch (q) {
    case Quantity::sectors:
      return "sectors";
    case Quantity::lines:
      return "lines";
    case Quantity::bytes_moved:
    case Quantity::bytes_used:
      return "B";
    case Quantity::efficiency_percent:
      return "%";
  }
  return "";
}

std::string with_unit(double v, const std::string& unit) {
  if (unit == "%") return sim::percent(v / 100.0);  // "12.5%", "16.7%", never a rounded "100%"
  const std::string n = format_number(v);
  if (unit.empty()) return n;
  if (unit == "sectors" || unit == "lines")  // "1 sector", "4 lines"
    return fmt::format("{} {}", n, v == 1 ? unit.substr(0, unit.size() - 1) : unit);
  return n + " " + unit;
}

std::string tolerance_note(double tolerance, const std::string& unit) {
  if (tolerance <= 0) return "";
  return fmt::format(" (accepted within ± {}{})", format_number(tolerance),
                     unit.empty() || unit == "%" ? unit : " " + unit);
}

std::string append(std::string text, const std::string& more) {
  if (more.empty()) return text;
  if (text.empty()) return more;
  return text + " " + more;
}

// ---- parsing ---------------------------------------------------------------------------------

struct Context {
  std::string where;  // "question 3 (stride-sectors)"
  std::vector<std::string>* errors;
  void error(const std::string& what) const { errors->push_back(where + ": " + what); }
};

bool is_id(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_';
  });
}

std::string json_type(const json& j) {
  return j.type_name();
}

bool get_string(const json& q, const char* key, std::string& out, const Context& ctx,
                bool required = true) {
  if (!q.contains(key)) {
    if (required) ctx.error(fmt::format("\"{}\" is missing", key));
    return false;
  }
  if (!q[key].is_string()) {
    ctx.error(fmt::format("\"{}\" must be a string (got {})", key, json_type(q[key])));
    return false;
  }
  out = q[key].get<std::string>();
  if (required && trim(out).empty()) {
    ctx.error(fmt::format("\"{}\" is empty", key));
    return false;
  }
  return true;
}

bool get_number(const json& q, const char* key, double& out, const Context& ctx) {
  if (!q[key].is_number()) {
    ctx.error(fmt::format("\"{}\" must be a number (got {})", key, json_type(q[key])));
    return false;
  }
  out = q[key].get<double>();
  if (!std::isfinite(out)) {
    ctx.error(fmt::format("\"{}\" must be a finite number", key));
    return false;
  }
  return true;
}

// `what` names the object for the message: "a choice question", "the quiz", ...
void check_keys(const json& q, const std::set<std::string>& allowed, const std::string& what,
                const Context& ctx) {
  for (const auto& [key, value] : q.items()) {
    if (allowed.count(key)) continue;
    std::string list;
    for (const std::string& k : allowed) list += (list.empty() ? "" : ", ") + k;
    ctx.error(fmt::format("unknown key \"{}\" in {} (allowed: {})", key, what, list));
  }
}

template <typename T>
bool get_values(const json& params, const char* key, std::vector<T>& out, const Context& ctx) {
  if (!params.contains(key)) return true;  // the default
  const json& v = params[key];
  if (!v.is_array() || v.empty()) {
    ctx.error(fmt::format("params.{} must be a non-empty array of integers", key));
    return false;
  }
  std::vector<T> values;
  for (const json& x : v) {
    if (!x.is_number_integer()) {
      ctx.error(fmt::format("params.{} must hold integers (got {})", key, x.dump()));
      return false;
    }
    values.push_back(x.get<T>());
  }
  std::vector<T> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    ctx.error(fmt::format("params.{} lists a value twice", key));
    return false;
  }
  out = values;
  return true;
}

void parse_choice(const json& q, Question& out, const Context& ctx) {
  check_keys(q, {"id", "kind", "prompt", "explain", "choices", "answer"}, "a choice question", ctx);
  if (!q.contains("choices") || !q["choices"].is_array()) {
    ctx.error("\"choices\" must be an array of strings");
  } else {
    std::set<std::string> seen;
    for (const json& c : q["choices"]) {
      if (!c.is_string() || trim(c.get<std::string>()).empty()) {
        ctx.error(fmt::format("every choice must be a non-empty string (got {})", c.dump()));
        continue;
      }
      const std::string text = c.get<std::string>();
      if (!seen.insert(lower(trim(text))).second)
        ctx.error(fmt::format("choice \"{}\" appears twice", text));
      out.choices.push_back(text);
    }
    const int n = static_cast<int>(q["choices"].size());
    if (n < 2 || n > kMaxChoices)
      ctx.error(fmt::format("a choice question needs 2 to {} choices (got {})", kMaxChoices, n));
  }
  if (!q.contains("answer")) {
    ctx.error("\"answer\" is missing (the letter of the right choice, e.g. \"b\")");
    return;
  }
  const json& a = q["answer"];
  const std::string given = a.is_string() ? lower(trim(a.get<std::string>())) : "";
  const int n = static_cast<int>(out.choices.size());
  if (given.size() != 1 || given[0] < 'a' || given[0] >= letter(std::max(n, 1))) {
    ctx.error(fmt::format("\"answer\" must be the letter of a choice, a to {} (got {})",
                          letter(std::max(n, 1) - 1), a.dump()));
    return;
  }
  out.answer_index = given[0] - 'a';
}

void parse_numeric(const json& q, Question& out, const Context& ctx) {
  check_keys(q, {"id", "kind", "prompt", "explain", "answer", "tolerance", "unit"},
             "a numeric question", ctx);
  if (!q.contains("answer"))
    ctx.error("\"answer\" is missing (a number)");
  else
    get_number(q, "answer", out.answer, ctx);
  if (q.contains("tolerance") && get_number(q, "tolerance", out.tolerance, ctx) &&
      out.tolerance < 0)
    ctx.error(fmt::format("\"tolerance\" must be 0 or more (got {})", out.tolerance));
  get_string(q, "unit", out.unit, ctx, /*required=*/false);
}

void parse_sectors(const json& q, Question& out, const Context& ctx) {
  check_keys(q, {"id", "kind", "prompt", "explain", "params", "ask", "tolerance"},
             "a sectors question", ctx);
  if (q.contains("answer"))
    ctx.error(
        "a sectors question has no \"answer\": the simulator computes it for the drawn "
        "parameters");
  std::string ask;
  if (get_string(q, "ask", ask, ctx)) {
    const Quantity all[] = {Quantity::sectors, Quantity::lines, Quantity::bytes_moved,
                            Quantity::bytes_used, Quantity::efficiency_percent};
    bool found = false;
    for (Quantity k : all)
      if (to_string(k) == ask) {
        out.ask = k;
        found = true;
      }
    if (!found)
      ctx.error(
          fmt::format("\"ask\" must be sectors, lines, bytes_moved, bytes_used or "
                      "efficiency_percent (got \"{}\")",
                      ask));
  }
  out.tolerance = out.ask == Quantity::efficiency_percent ? kDefaultPercentTolerance : 0;
  if (q.contains("tolerance") && get_number(q, "tolerance", out.tolerance, ctx) &&
      out.tolerance < 0)
    ctx.error(fmt::format("\"tolerance\" must be 0 or more (got {})", out.tolerance));

  if (!q.contains("params") || !q["params"].is_object()) {
    ctx.error("\"params\" must be an object, e.g. {\"stride\": [1, 2, 4], \"width\": [4, 8]}");
    return;
  }
  const json& p = q["params"];
  for (const auto& [key, value] : p.items())
    if (key != "stride" && key != "offset" && key != "width" && key != "lanes")
      ctx.error(
          fmt::format("unknown parameter \"{}\" (allowed: stride, offset, width, lanes)", key));
  bool ok = get_values(p, "stride", out.params.stride, ctx);
  ok = get_values(p, "offset", out.params.offset, ctx) && ok;
  ok = get_values(p, "width", out.params.width, ctx) && ok;
  ok = get_values(p, "lanes", out.params.lanes, ctx) && ok;
  if (!ok) return;

  const Params& v = out.params;
  const std::size_t combinations =
      v.stride.size() * v.offset.size() * v.width.size() * v.lanes.size();
  if (combinations > kMaxCombinations) {
    ctx.error(
        fmt::format("params allow {} combinations; at most {}", combinations, kMaxCombinations));
    return;
  }
  std::set<std::string> reported;
  for (long long s : v.stride)
    for (long long o : v.offset)
      for (int w : v.width)
        for (int l : v.lanes) {
          sim::Access a;
          a.stride = s;
          a.offset = o;
          a.element_bytes = w;
          a.lanes = l;
          const std::string why = sim::validate(a);
          if (!why.empty() && reported.insert(why).second)
            ctx.error(fmt::format("stride {}, offset {}, width {}, lanes {}: {}", s, o, w, l, why));
        }

  // The student must be told every parameter that varies.
  sim::Access sample;
  sample.stride = v.stride[0];
  sample.offset = v.offset[0];
  sample.element_bytes = v.width[0];
  sample.lanes = v.lanes[0];
  std::set<std::string> used;
  std::vector<std::string> template_errors;
  fill(out.prompt, placeholder_values(sample), &used, &template_errors);
  fill(out.explain, placeholder_values(sample), nullptr, &template_errors);
  for (const std::string& e : std::set<std::string>(template_errors.begin(), template_errors.end()))
    ctx.error(e);
  auto shown = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (used.count(n)) return true;
    return false;
  };
  if (v.stride.size() > 1 && !shown({"stride", "expr", "distance"}))
    ctx.error("stride varies but the prompt never shows it (use {stride} or {expr})");
  if (v.offset.size() > 1 && !shown({"offset", "expr", "offset_bytes"}))
    ctx.error("offset varies but the prompt never shows it (use {offset} or {expr})");
  if (v.width.size() > 1 && !shown({"width", "type"}))
    ctx.error("width varies but the prompt never shows it (use {width} or {type})");
  if (v.lanes.size() > 1 && !shown({"lanes"}))
    ctx.error("lanes varies but the prompt never shows it (use {lanes})");
}

void parse_prediction(const json& q, Question& out, const Context& ctx) {
  check_keys(q, {"id", "kind", "prompt", "explain", "measured"}, "a prediction question", ctx);
  if (!q.contains("measured") || !q["measured"].is_object()) {
    ctx.error(
        "\"measured\" must be an object naming a step, e.g. {\"lesson\": \"07_transpose\", "
        "\"step\": \"naive\"}");
    return;
  }
  const json& m = q["measured"];
  const Context inner{ctx.where + ", measured", ctx.errors};
  check_keys(m, {"lesson", "step"}, "\"measured\"", inner);
  get_string(m, "lesson", out.measured_lesson, inner);
  get_string(m, "step", out.measured_step, inner);
}

}  // namespace

std::string to_string(Quantity q) {
  switch (q) {
    case Quantity::sectors:
      return "sectors";
    case Quantity::lines:
      return "lines";
    case Quantity::bytes_moved:
      return "bytes_moved";
    case Quantity::bytes_used:
      return "bytes_used";
    case Quantity::efficiency_percent:
      return "efficiency_percent";
  }
  return "?";
}

double quantity_value(const sim::Result& r, Quantity q) {
  switch (q) {
    case Quantity::sectors:
      return static_cast<double>(r.sectors.size());
    case Quantity::lines:
      return static_cast<double>(r.lines.size());
    case Quantity::bytes_moved:
      return static_cast<double>(r.bytes_moved);
    case Quantity::bytes_used:
      return static_cast<double>(r.bytes_used);
    case Quantity::efficiency_percent:
      return r.efficiency * 100.0;
  }
  return 0;
}

Quiz Quiz::parse(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw QuizError(fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
  std::vector<std::string> errors;
  const Context top{"quiz", &errors};
  if (!j.is_object()) throw QuizError(fmt::format("{}: a quiz must be a JSON object", origin));
  check_keys(j, {"schema", "lesson", "title", "questions"}, "the quiz", top);

  Quiz quiz;
  if (!j.contains("schema") || !j["schema"].is_number_integer() || j["schema"].get<int>() != 1)
    top.error(fmt::format("\"schema\" must be 1 (got {})",
                          j.contains("schema") ? j["schema"].dump() : "nothing"));
  else
    quiz.schema = 1;
  get_string(j, "lesson", quiz.lesson, top);
  get_string(j, "title", quiz.title, top, /*required=*/false);
  if (!j.contains("questions") || !j["questions"].is_array() || j["questions"].empty())
    top.error("\"questions\" must be a non-empty array");

  std::set<std::string> ids;
  int number = 0;
  for (const json& q : j.value("questions", json::array())) {
    ++number;
    Context ctx{fmt::format("question {}", number), &errors};
    if (!q.is_object()) {
      ctx.error("must be an object");
      continue;
    }
    Question out;
    if (get_string(q, "id", out.id, ctx)) {
      ctx.where += fmt::format(" ({})", out.id);
      if (!is_id(out.id))
        ctx.error("\"id\" may hold only letters, digits, '-' and '_'");
      else if (!ids.insert(out.id).second)
        ctx.error("this id is used by an earlier question");
    }
    get_string(q, "prompt", out.prompt, ctx);
    get_string(q, "explain", out.explain, ctx);
    std::string kind;
    if (!get_string(q, "kind", kind, ctx)) continue;
    if (kind == "choice") {
      out.kind = Kind::choice;
      parse_choice(q, out, ctx);
    } else if (kind == "numeric") {
      out.kind = Kind::numeric;
      parse_numeric(q, out, ctx);
    } else if (kind == "sectors") {
      out.kind = Kind::sectors;
      parse_sectors(q, out, ctx);
    } else if (kind == "prediction") {
      out.kind = Kind::prediction;
      parse_prediction(q, out, ctx);
    } else {
      ctx.error(fmt::format("\"kind\" must be choice, numeric, sectors or prediction (got \"{}\")",
                            kind));
      continue;
    }
    quiz.questions.push_back(std::move(out));
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

Instance instantiate(const Question& q, unsigned long long seed) {
  Instance inst;
  inst.question = q;
  inst.prompt = q.prompt;
  inst.explain = q.explain;
  inst.answer = q.answer;
  inst.tolerance = q.tolerance;
  inst.unit = q.unit;
  if (q.kind == Kind::prediction) inst.unit = "%";
  if (q.kind != Kind::sectors) return inst;

  std::uint64_t state = static_cast<std::uint64_t>(seed) ^ fnv1a(q.id);
  sim::Access a;
  a.stride = pick(q.params.stride, state);
  a.offset = pick(q.params.offset, state);
  a.element_bytes = pick(q.params.width, state);
  a.lanes = pick(q.params.lanes, state);
  const auto values = placeholder_values(a);
  inst.prompt = fill(q.prompt, values, nullptr, nullptr);
  inst.explain = fill(q.explain, values, nullptr, nullptr);
  inst.access = a;
  inst.result = sim::simulate(a);
  inst.answer = quantity_value(*inst.result, q.ask);
  inst.unit = unit_of(q.ask);
  return inst;
}

std::optional<double> parse_number(const std::string& text) {
  std::string s = trim(text);
  if (s.empty()) return std::nullopt;
  // The number: sign, digits (with optional thousands commas), fraction, exponent.
  std::size_t i = 0;
  std::string number;
  if (s[i] == '+' || s[i] == '-') number += s[i++];
  std::string digits;
  int group = -1;  // digits since the last comma, -1 before any comma
  bool commas = false;
  for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == ','); ++i) {
    if (s[i] == ',') {
      if (digits.empty() || (group != -1 && group != 3) || (group == -1 && digits.size() > 3))
        return std::nullopt;
      commas = true;
      group = 0;
      continue;
    }
    digits += s[i];
    if (group != -1) ++group;
  }
  if (commas && group != 3) return std::nullopt;  // "1,5" is not a thousands separator
  number += digits;
  if (i < s.size() && s[i] == '.') {
    number += s[i++];
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) number += s[i++];
  }
  if (number.find_first_of("0123456789") == std::string::npos) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    std::string exponent = "e";
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) exponent += s[j++];
    if (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) {
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) exponent += s[j++];
      number += exponent;
      i = j;
    }
  }
  // What may follow: a unit, "%" or words ("B", "sectors", "GB/s"), but no further digits.
  const std::string rest = s.substr(i);
  for (unsigned char c : rest)
    if (!(std::isalpha(c) || c == '%' || c == ' ' || c == '/' || c == '\t')) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string format_number(double v) {
  if (std::isfinite(v) && v == std::round(v) && std::fabs(v) < 1e15) {
    const long long n = static_cast<long long>(std::llround(v));
    std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out;
    for (std::size_t k = 0; k < digits.size(); ++k) {
      if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
      out += digits[k];
    }
    return (n < 0 ? "-" : "") + out;
  }
  return fmt::format("{:.6g}", v);
}

Verdict check(const Instance& inst, const std::string& answer, double measured_fraction) {
  const Question& q = inst.question;
  Verdict v;
  v.scored = q.scored();
  const std::string given = trim(answer);
  v.skipped = given.empty() || given == "-";

  if (q.kind == Kind::choice) {
    const int n = static_cast<int>(q.choices.size());
    const std::string right =
        fmt::format("{}) {}", letter(q.answer_index), q.choices[q.answer_index]);
    int picked = -1;
    if (!v.skipped) {
      std::string key = lower(given);
      if (key.size() >= 2 && key.front() == '(' && key.back() == ')')
        key = key.substr(1, key.size() - 2);
      else if (key.size() == 2 && (key[1] == ')' || key[1] == '.'))
        key = key.substr(0, 1);
      if (key.size() == 1 && key[0] >= 'a' && key[0] < letter(n)) picked = key[0] - 'a';
      for (int k = 0; k < n && picked < 0; ++k)
        if (lower(trim(q.choices[k])) == lower(given)) picked = k;
    }
    v.understood = v.skipped || picked >= 0;
    if (!v.understood)
      v.problem = fmt::format("type a letter from a to {} (or - to skip)", letter(n - 1));
    v.correct = picked == q.answer_index;
    std::string head;
    if (v.correct)
      head = fmt::format("Right: {}.", right);
    else if (v.skipped)
      head = fmt::format("Skipped. The answer is {}.", right);
    else if (picked >= 0)
      head = fmt::format("Not {}: the answer is {}.", letter(picked), right);
    else
      head = fmt::format("Could not read \"{}\" as a choice. The answer is {}.", given, right);
    v.explanation = append(head, inst.explain);
    return v;
  }

  if (q.kind == Kind::prediction) {
    if (!v.skipped) v.value = parse_number(given);
    v.understood = v.skipped || (v.value && *v.value >= 0 && *v.value <= 100);
    if (!v.understood) {
      v.problem = "type your estimate in percent of the copy ceiling, 0 to 100 (or - to skip)";
      v.value.reset();
    }
    const std::string step = q.measured_lesson + "." + q.measured_step;
    std::string head;
    if (v.value)
      head = fmt::format("Your estimate: {}% of the copy ceiling.", format_number(*v.value));
    else if (v.skipped)
      head = "No estimate given.";
    else
      head = fmt::format("Could not read \"{}\" as a percentage.", given);
    if (measured_fraction >= 0) {
      const double measured = measured_fraction * 100.0;
      head += fmt::format(" Measured on your GPU: {:.1f}% (best graded run of {})", measured, step);
      if (v.value) {
        const double diff = measured - *v.value;
        if (std::fabs(diff) < 0.05)
          head += ", right on your estimate.";
        else
          head += fmt::format(", {:.1f} points {} your estimate.", std::fabs(diff),
                              diff > 0 ? "above" : "below");
      } else {
        head += ".";
      }
    } else {
      head += fmt::format(" Not measured yet: grade the step to compare (grader {}).", step);
    }
    v.explanation = append(head, inst.explain);
    return v;
  }

  // numeric and sectors
  if (!v.skipped) v.value = parse_number(given);
  v.understood = v.skipped || v.value.has_value();
  if (!v.understood) v.problem = "type a number, e.g. 12.5 (or - to skip)";
  v.correct = v.value && std::fabs(*v.value - inst.answer) <= inst.tolerance + 1e-9;
  const std::string right = with_unit(inst.answer, inst.unit);
  std::string head;
  if (v.correct)
    head = fmt::format("Right: {}{}.", right, tolerance_note(inst.tolerance, inst.unit));
  else if (v.skipped)
    head = fmt::format("Skipped. The answer is {}.", right);
  else if (v.value)
    head = fmt::format("The answer is {}, not {}{}.", right, format_number(*v.value),
                       tolerance_note(inst.tolerance, inst.unit));
  else
    head = fmt::format("Could not read \"{}\" as a number. The answer is {}.", given, right);

  if (q.kind == Kind::sectors) {
    const sim::Access& a = *inst.access;
    const sim::Result& r = *inst.result;
    std::string model = fmt::format(
        "Sector model: lane i reads {} ({} lanes, stride {}, offset {}, {}-byte {} elements)",
        sim::expression(a), a.lanes, a.stride, a.offset, a.element_bytes,
        type_name(a.element_bytes));
    if (a.lanes > 1 && a.stride > 0)
      model += fmt::format(
          ", lanes {} B apart, bytes {} to {}", a.stride * a.element_bytes,
          format_number(static_cast<double>(r.lane_address.front())),
          format_number(static_cast<double>(r.lane_address.back() + a.element_bytes - 1)));
    model +=
        fmt::format(": {}, {}, moved {} B / used {} B = {}.",
                    with_unit(static_cast<double>(r.sectors.size()), "sectors"),
                    with_unit(static_cast<double>(r.lines.size()), "lines"),
                    format_number(static_cast<double>(r.bytes_moved)),
                    format_number(static_cast<double>(r.bytes_used)), sim::percent(r.efficiency));
    head = append(head, model);
  }
  v.explanation = append(head, inst.explain);
  return v;
}

}  // namespace course::quiz
