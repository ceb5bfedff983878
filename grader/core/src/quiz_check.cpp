// One attempt at a quiz (course/quiz.hpp): a question as asked (choices shuffled, a registered
// kind drawn) and the checking and explaining of a typed answer.
#include <fmt/format.h>

#include <cmath>
#include <numeric>

#include "course/quiz.hpp"
#include "quiz_internal.hpp"

namespace course::quiz {

using detail::letter;
using detail::lower;
using detail::trim;

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}

// "1 sector", "4 lines", "12.5%", "1,024 B": a unit that is a plural word loses its "s" for 1.
std::string with_unit(double v, const std::string& unit) {
  if (unit == "%") return format_percent(v);
  const std::string n = format_number(v);
  if (unit.empty()) return n;
  const bool word =
      unit.size() > 2 && unit.back() == 's' &&
      std::all_of(unit.begin(), unit.end(), [](unsigned char c) { return std::isalpha(c); });
  if (word && v == 1) return n + " " + unit.substr(0, unit.size() - 1);
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

std::string number_form(const std::string& unit) {
  if (unit.empty()) return "(a number)";
  if (unit == "%") return "(a number, in percent)";
  if (unit == "B") return "(a number of bytes)";
  return fmt::format("(a number, in {})", unit);
}

// The file's choices in an order drawn from `seed` (Fisher-Yates), and where the right one went:
// each attempt shows them in its own order, so the position of an answer teaches nothing and
// the same letter typed everywhere scores only by chance.
void shuffle_choices(const Question& q, std::uint64_t seed, Instance& inst) {
  std::vector<int> order(q.choices.size());
  std::iota(order.begin(), order.end(), 0);
  Random random(seed);
  for (std::size_t k = order.size(); k > 1; --k) std::swap(order[k - 1], order[random.next() % k]);
  for (std::size_t k = 0; k < order.size(); ++k) {
    inst.choices.push_back(q.choices[order[k]]);
    if (order[k] == q.answer_index) inst.answer_index = static_cast<int>(k);
  }
}

}  // namespace

int choice_by_letter(const std::string& answer, int choices) {
  std::string key = lower(answer);
  if (key.size() >= 2 && key.front() == '(' && key.back() == ')')
    key = key.substr(1, key.size() - 2);
  else if (key.size() == 2 && (key[1] == ')' || key[1] == '.'))
    key = key.substr(0, 1);
  return key.size() == 1 && key[0] >= 'a' && key[0] < letter(choices) ? key[0] - 'a' : -1;
}

namespace {

Verdict check_choice(const Instance& inst, const std::string& given, Verdict v) {
  const int n = static_cast<int>(inst.choices.size());
  const std::string right =
      fmt::format("{}) {}", letter(inst.answer_index), inst.choices[inst.answer_index]);
  int picked = -1;
  if (!v.skipped) {
    picked = choice_by_letter(given, n);
    for (int k = 0; k < n && picked < 0; ++k)
      if (lower(trim(inst.choices[k])) == lower(given)) picked = k;
  }
  v.understood = v.skipped || picked >= 0;
  if (!v.understood)
    v.problem = fmt::format("type a letter from a to {} (or - to skip)", letter(n - 1));
  v.correct = picked == inst.answer_index;
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

// How the estimate compares with the measurement of the step, when there is one.
std::string compare_with_measurement(const Question& q, const Verdict& v,
                                     double measured_fraction) {
  const std::string step = q.measured_lesson + "." + q.measured_step;
  if (measured_fraction < 0)
    return fmt::format(" Not measured yet: grade the step to compare (grader {}).", step);
  const double measured = measured_fraction * 100.0;
  std::string text =
      fmt::format(" Measured on your GPU: {:.1f}% (best graded run of {})", measured, step);
  if (!v.value) return text + ".";
  const double diff = measured - *v.value;
  if (std::fabs(diff) < 0.05) return text + ", right on your estimate.";
  return text + fmt::format(", {:.1f} points {} your estimate.", std::fabs(diff),
                            diff > 0 ? "above" : "below");
}

Verdict check_prediction(const Instance& inst, const std::string& given, Verdict v,
                         double measured_fraction) {
  if (!v.skipped) v.value = parse_number(given);
  v.understood = v.skipped || (v.value && *v.value >= 0 && *v.value <= 100);
  if (!v.understood) {
    v.problem = "type your estimate in percent of the step's ceiling, 0 to 100 (or - to skip)";
    v.value.reset();
  }
  std::string head;
  if (v.value)
    head = fmt::format("Your estimate: {}% of the step's ceiling.", format_number(*v.value));
  else if (v.skipped)
    head = "No estimate given.";
  else
    head = fmt::format("Could not read \"{}\" as a percentage.", given);
  head += compare_with_measurement(inst.question, v, measured_fraction);
  v.explanation = append(head, inst.explain);
  return v;
}

// numeric and generated kinds
Verdict check_number(const Instance& inst, const std::string& given, Verdict v) {
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
  v.explanation = append(append(head, inst.working), inst.explain);
  return v;
}

}  // namespace

Instance instantiate(const Question& q, unsigned long long seed) {
  Instance inst;
  inst.question = q;
  inst.prompt = q.prompt;
  inst.explain = q.explain;
  inst.answer = q.answer;
  inst.tolerance = q.tolerance;
  inst.unit = q.unit;
  inst.draw_seed = static_cast<std::uint64_t>(seed) ^ fnv1a(q.id);
  switch (q.kind) {
    case Kind::choice:
      shuffle_choices(q, inst.draw_seed, inst);
      inst.answer_form =
          fmt::format("(a letter, a to {})", letter(static_cast<int>(q.choices.size()) - 1));
      break;
    case Kind::numeric:
      inst.answer_form = number_form(q.unit);
      break;
    case Kind::prediction:
      inst.unit = "%";
      inst.answer_form = "(your estimate, in percent of the step's ceiling; not scored)";
      break;
    case Kind::generated: {
      DrawnQuestion d = q.generator->draw(inst.draw_seed);
      inst.prompt = d.prompt;
      inst.explain = d.explain;
      inst.answer = d.answer;
      inst.tolerance = d.tolerance;
      inst.unit = d.unit;
      inst.answer_form = d.answer_form.empty() ? number_form(d.unit) : d.answer_form;
      inst.working = d.working;
      inst.illustrate = d.illustrate;
      break;
    }
  }
  return inst;
}

Verdict check(const Instance& inst, const std::string& answer, double measured_fraction) {
  Verdict v;
  v.scored = inst.question.scored();
  const std::string given = trim(answer);
  v.skipped = given.empty() || given == "-";
  switch (inst.question.kind) {
    case Kind::choice:
      return check_choice(inst, given, v);
    case Kind::prediction:
      return check_prediction(inst, given, v, measured_fraction);
    case Kind::numeric:
    case Kind::generated:
      break;
  }
  return check_number(inst, given, v);
}

}  // namespace course::quiz
