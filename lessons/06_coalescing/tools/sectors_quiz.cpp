#include "sectors_quiz.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "course/extensions.hpp"

namespace coalescing::sectors_quiz {

namespace {

using course::quiz::format_number;
using course::quiz::QuestionReader;
using nlohmann::json;

constexpr std::size_t kMaxCombinations = 100000;  // parameter combinations checked at load time
constexpr double kDefaultPercentTolerance = 0.1;

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

// Each quantity's name in quiz.json and the unit its answer is written in.
struct QuantityInfo {
  Quantity quantity;
  const char* name;
  const char* unit;
};
constexpr QuantityInfo kQuantityInfo[] = {
    {Quantity::sectors, "sectors", "sectors"},
    {Quantity::lines, "lines", "lines"},
    {Quantity::bytes_moved, "bytes_moved", "B"},
    {Quantity::bytes_used, "bytes_used", "B"},
    {Quantity::efficiency_percent, "efficiency_percent", "%"}};

const QuantityInfo& info(Quantity q) {
  return *std::find_if(std::begin(kQuantityInfo), std::end(kQuantityInfo),
                       [&](const QuantityInfo& i) { return i.quantity == q; });
}

std::string unit_of(Quantity q) {
  return info(q).unit;
}

std::string answer_form(Quantity q) {
  if (q == Quantity::efficiency_percent) return "(a number, in percent)";
  if (q == Quantity::bytes_moved || q == Quantity::bytes_used) return "(a number of bytes)";
  return fmt::format("(a number of {})", unit_of(q));
}

std::string count(unsigned long long n, const char* word) {
  return fmt::format("{} {}{}", format_number(static_cast<double>(n)), word, n == 1 ? "" : "s");
}

// How the simulator arrives at the answer, named in the lesson's terms.
std::string working(const sim::Access& a, const sim::Result& r) {
  std::string model = fmt::format(
      "Sector model: lane i reads {} ({} lanes, stride {}, offset {}, {}-byte {} elements)",
      sim::expression(a), a.lanes, a.stride, a.offset, a.element_bytes, type_name(a.element_bytes));
  if (a.lanes > 1 && a.stride > 0)
    model += fmt::format(
        ", lanes {} B apart, bytes {} to {}", a.stride * a.element_bytes,
        format_number(static_cast<double>(r.lane_address.front())),
        format_number(static_cast<double>(r.lane_address.back() + a.element_bytes - 1)));
  return model + fmt::format(": {}, {}, moved {} B / used {} B = {}.",
                             count(r.sectors.size(), "sector"), count(r.lines.size(), "line"),
                             format_number(static_cast<double>(r.bytes_moved)),
                             format_number(static_cast<double>(r.bytes_used)),
                             sim::percent(r.efficiency));
}

template <typename T>
bool read_values(const QuestionReader& params, const char* key, std::vector<T>& out) {
  if (!params.has(key)) return true;  // the default
  const json& v = params.object()[key];
  const std::string where = fmt::format("params.{}", key);
  if (!v.is_array() || v.empty()) {
    params.error(where + " must be a non-empty array of integers");
    return false;
  }
  std::vector<T> values;
  for (const json& x : v) {
    if (!x.is_number_integer()) {
      params.error(fmt::format("{} must hold integers (got {})", where, x.dump()));
      return false;
    }
    values.push_back(x.get<T>());
  }
  std::vector<T> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    params.error(where + " lists a value twice");
    return false;
  }
  out = values;
  return true;
}

void read_ask(const QuestionReader& r, SectorsQuestion& q) {
  std::string ask;
  if (r.string("ask", ask)) {
    const auto* found = std::find_if(std::begin(kQuantityInfo), std::end(kQuantityInfo),
                                     [&](const QuantityInfo& k) { return k.name == ask; });
    if (found == std::end(kQuantityInfo))
      r.error(fmt::format(
          "\"ask\" must be sectors, lines, bytes_moved, bytes_used or efficiency_percent (got "
          "\"{}\")",
          ask));
    else
      q.ask = found->quantity;
  }
  q.tolerance = q.ask == Quantity::efficiency_percent ? kDefaultPercentTolerance : 0;
  r.tolerance(q.tolerance);
}

// Reads `params`; false when they cannot be used (problems recorded).
bool read_params(const QuestionReader& r, Params& p) {
  if (!r.has("params") || !r.object()["params"].is_object()) {
    r.error("\"params\" must be an object, e.g. {\"stride\": [1, 2, 4], \"width\": [4, 8]}");
    return false;
  }
  // Problems read "question N (id): params.stride ...", as the file does.
  const QuestionReader params = r.reader_for(r.object()["params"]);
  for (const auto& [key, value] : params.object().items())
    if (key != "stride" && key != "offset" && key != "width" && key != "lanes")
      r.error(fmt::format("unknown parameter \"{}\" (allowed: stride, offset, width, lanes)", key));
  bool ok = read_values(params, "stride", p.stride);
  ok = read_values(params, "offset", p.offset) && ok;
  ok = read_values(params, "width", p.width) && ok;
  return read_values(params, "lanes", p.lanes) && ok;
}

// Every combination of the listed values must be a load the simulator accepts.
void check_combinations(const QuestionReader& r, const Params& v) {
  const std::size_t combinations =
      v.stride.size() * v.offset.size() * v.width.size() * v.lanes.size();
  if (combinations > kMaxCombinations) {
    r.error(
        fmt::format("params allow {} combinations; at most {}", combinations, kMaxCombinations));
    return;
  }
  std::set<std::string> reported;
  for (long long s : v.stride)
    for (long long o : v.offset)
      for (int w : v.width)
        for (int l : v.lanes) {
          const std::string why = sim::validate({l, s, o, w});
          if (!why.empty() && reported.insert(why).second)
            r.error(fmt::format("stride {}, offset {}, width {}, lanes {}: {}", s, o, w, l, why));
        }
}

// The student must be told every parameter that varies; the templates must be well formed.
void check_templates(const QuestionReader& r, const SectorsQuestion& q) {
  const Params& v = q.params;
  const auto values = placeholder_values({v.lanes[0], v.stride[0], v.offset[0], v.width[0]});
  std::set<std::string> used;
  std::vector<std::string> errors;
  course::quiz::fill_placeholders(q.prompt, values, &used, &errors);
  course::quiz::fill_placeholders(q.explain, values, nullptr, &errors);
  for (const std::string& e : std::set<std::string>(errors.begin(), errors.end())) r.error(e);
  auto shown = [&](std::initializer_list<const char*> names) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return used.count(n); });
  };
  if (v.stride.size() > 1 && !shown({"stride", "expr", "distance"}))
    r.error("stride varies but the prompt never shows it (use {stride} or {expr})");
  if (v.offset.size() > 1 && !shown({"offset", "expr", "offset_bytes"}))
    r.error("offset varies but the prompt never shows it (use {offset} or {expr})");
  if (v.width.size() > 1 && !shown({"width", "type"}))
    r.error("width varies but the prompt never shows it (use {width} or {type})");
  if (v.lanes.size() > 1 && !shown({"lanes"}))
    r.error("lanes varies but the prompt never shows it (use {lanes})");
}

}  // namespace

std::string to_string(Quantity q) {
  return info(q).name;
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

sim::Access SectorsQuestion::access_for(std::uint64_t seed) const {
  course::quiz::Random random(seed);
  sim::Access a;
  a.stride = random.pick(params.stride);
  a.offset = random.pick(params.offset);
  a.element_bytes = random.pick(params.width);
  a.lanes = random.pick(params.lanes);
  return a;
}

course::quiz::DrawnQuestion SectorsQuestion::draw(std::uint64_t seed) const {
  const sim::Access a = access_for(seed);
  const sim::Result r = sim::simulate(a);
  const auto values = placeholder_values(a);
  course::quiz::DrawnQuestion d;
  d.prompt = course::quiz::fill_placeholders(prompt, values);
  d.explain = course::quiz::fill_placeholders(explain, values);
  d.answer = quantity_value(r, ask);
  d.tolerance = tolerance;
  d.unit = unit_of(ask);
  d.answer_form = answer_form(ask);
  d.working = working(a, r);
  d.illustrate = [a, r](bool color) { return sim::draw(a, r, color); };
  return d;
}

std::shared_ptr<const course::quiz::QuestionGenerator> parse(
    const course::quiz::QuestionReader& reader, const std::string& prompt,
    const std::string& explain) {
  auto q = std::make_shared<SectorsQuestion>();
  q->prompt = prompt;
  q->explain = explain;
  if (reader.has("answer"))
    reader.error(
        "a sectors question has no \"answer\": the simulator computes it for the drawn "
        "parameters");
  read_ask(reader, *q);
  if (!read_params(reader, q->params)) return nullptr;
  check_combinations(reader, q->params);
  check_templates(reader, *q);
  return q;
}

namespace {

const course::ext::QuizKindRegistrar registrar{
    {"sectors", "06_coalescing", {"params", "ask", "tolerance"}, parse}};

}  // namespace

}  // namespace coalescing::sectors_quiz
