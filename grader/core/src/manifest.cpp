#include "course/manifest.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace course {

using nlohmann::json;

int Lesson::number() const {
  return std::stoi(id.substr(0, 2));
}

std::string Lesson::short_name() const {
  return id.size() > 3 ? id.substr(3) : id;
}

const Step* Lesson::find_step(const std::string& name) const {
  for (const Step& s : steps)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<const Step*> Lesson::required_steps() const {
  std::vector<const Step*> out;
  for (const Step& s : steps)
    if (!s.optional) out.push_back(&s);
  return out;
}

double Ceiling::impossible_above() const {
  return kind == "library" ? 1.5 : 1.05;
}

namespace {

template <typename T>
T get_or(const json& j, const char* key, T fallback) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

Ceiling parse_ceiling(const json& j, Ceiling fallback) {
  fallback.kind = get_or<std::string>(j, "kind", fallback.kind);
  fallback.kernel = get_or<std::string>(j, "kernel", fallback.kernel);
  fallback.what = get_or<std::string>(j, "what", fallback.what);
  return fallback;
}

Step parse_step(const json& j, const Ceiling& lesson_ceiling) {
  Step s;
  s.name = j.at("name").get<std::string>();
  s.title = get_or<std::string>(j, "title", "");
  if (auto g = j.find("gate"); g != j.end() && !g->is_null())
    s.gate = Gate{g->at("fraction_of_ceiling").get<double>()};
  s.hints = get_or<std::vector<std::string>>(j, "hints", {});
  s.optional = get_or<bool>(j, "optional", false);
  s.requires_cc = get_or<std::string>(j, "requires_compute_capability", "");
  s.ceiling = lesson_ceiling;
  if (auto c = j.find("ceiling"); c != j.end()) s.ceiling = parse_ceiling(*c, Ceiling{});
  return s;
}

Lesson parse_lesson(const json& j) {
  Lesson l;
  l.id = j.at("id").get<std::string>();
  l.title = j.at("title").get<std::string>();
  l.summary = get_or<std::string>(j, "summary", "");
  l.minutes = get_or<int>(j, "minutes", 0);
  l.stage = j.at("stage").get<int>();
  l.status = j.at("status").get<std::string>();
  if (auto r = j.find("requires"); r != j.end())
    l.min_cc = get_or<std::string>(*r, "compute_capability", "");
  Ceiling ceiling;  // the lesson's default for steps without their own
  if (auto c = j.find("ceiling"); c != j.end()) ceiling = parse_ceiling(*c, ceiling);
  l.libraries = get_or<std::vector<std::string>>(j, "libraries", {});
  l.link_wraps = get_or<std::vector<std::string>>(j, "link_wraps", {});
  l.student_host_code = get_or<bool>(j, "student_host_code", false);
  if (auto p = j.find("profile"); p != j.end()) {
    l.profile_table = get_or<std::string>(*p, "bench_table", "");
    l.profile_kernels = get_or<std::string>(*p, "kernels", "");
  }
  for (const json& s : get_or<json>(j, "steps", json::array()))
    l.steps.push_back(parse_step(s, ceiling));
  for (const json& w : get_or<json>(j, "wrong_kernels", json::array()))
    l.wrong_kernels.push_back({w.at("name").get<std::string>(), w.at("step").get<std::string>(),
                               w.at("diagnosis").get<std::string>(),
                               get_or<std::string>(w, "what", ""),
                               get_or<std::string>(w, "sanitize", "")});
  return l;
}

}  // namespace

bool is_lesson_id(const std::string& id) {
  if (id.size() < 4 || !std::isdigit(static_cast<unsigned char>(id[0])) ||
      !std::isdigit(static_cast<unsigned char>(id[1])) || id[2] != '_')
    return false;
  return std::all_of(id.begin() + 3, id.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

Manifest Manifest::parse(const std::string& text, const std::string& origin) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ManifestError(fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
  try {
    Manifest m;
    m.schema = j.at("schema").get<int>();
    if (m.schema != 1)
      throw ManifestError(
          fmt::format("{}: schema {} is not supported (this grader reads 1)", origin, m.schema));
    m.course = j.at("course").get<std::string>();
    m.version = j.at("version").get<std::string>();
    for (const json& s : j.at("stages"))
      m.stages.push_back({s.at("number").get<int>(), s.at("title").get<std::string>()});
    for (const json& l : j.at("lessons")) m.lessons.push_back(parse_lesson(l));
    return m;
  } catch (const json::exception& e) {
    throw ManifestError(fmt::format("{}: unexpected shape: {}", origin, e.what()));
  }
}

Manifest Manifest::load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ManifestError(fmt::format("cannot read the course manifest {}", path));
  std::stringstream buf;
  buf << in.rdbuf();
  return parse(buf.str(), path);
}

const Lesson* Manifest::find(const std::string& id) const {
  for (const Lesson& l : lessons)
    if (l.id == id) return &l;
  return nullptr;
}

std::vector<std::string> Manifest::problems() const {
  std::vector<std::string> out;
  std::set<std::string> ids;
  std::set<int> numbers;
  int previous = -1;  // lesson 00 is allowed
  for (const Lesson& l : lessons) {
    if (!is_lesson_id(l.id)) {
      out.push_back(fmt::format("lesson id '{}' is not NN_snake_name", l.id));
      continue;
    }
    if (!ids.insert(l.id).second) out.push_back(fmt::format("lesson id '{}' appears twice", l.id));
    if (!numbers.insert(l.number()).second)
      out.push_back(fmt::format("lesson number {:02d} appears twice", l.number()));
    if (l.number() <= previous)
      out.push_back(fmt::format("lesson {} is out of order (after {:02d})", l.id, previous));
    previous = l.number();
    if (l.status != "ready" && l.status != "planned")
      out.push_back(
          fmt::format("lesson {}: status '{}' is neither ready nor planned", l.id, l.status));
    if (std::none_of(stages.begin(), stages.end(),
                     [&](const Stage& s) { return s.number == l.stage; }))
      out.push_back(fmt::format("lesson {}: stage {} is not declared", l.id, l.stage));
    if (l.minutes < 0 || l.minutes > 600)
      out.push_back(fmt::format(
          "lesson {}: minutes {} is not a time from 0 to 600 (0 = not stated)", l.id, l.minutes));
    if (!l.ready()) continue;
    if (l.steps.empty()) out.push_back(fmt::format("lesson {} is ready but has no steps", l.id));
    for (const std::string& lib : l.libraries)
      if (lib != "cublas")
        out.push_back(fmt::format("lesson {}: unknown library '{}' (known: cublas)", l.id, lib));
    for (const std::string& fn : l.link_wraps)
      if (fn.rfind("cuda", 0) != 0 || !std::all_of(fn.begin(), fn.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
          }))
        out.push_back(fmt::format(
            "lesson {}: link_wraps entry '{}' is not the name of a CUDA runtime function", l.id,
            fn));
    std::set<std::string> step_names;
    for (const Step& s : l.steps) {
      if (!step_names.insert(s.name).second)
        out.push_back(fmt::format("lesson {}: step '{}' appears twice", l.id, s.name));
      if (s.hints.size() < 2)
        out.push_back(
            fmt::format("lesson {}: step '{}' needs at least two hint tiers", l.id, s.name));
      if (s.gate && s.ceiling.kernel.empty())
        out.push_back(fmt::format("lesson {}: step '{}' has a gate but names no ceiling kernel",
                                  l.id, s.name));
      if (std::find(std::begin(kCeilingKinds), std::end(kCeilingKinds), s.ceiling.kind) ==
          std::end(kCeilingKinds))
        out.push_back(fmt::format(
            "lesson {}: step '{}' ceiling kind '{}' is not one of {}", l.id, s.name, s.ceiling.kind,
            fmt::join(std::begin(kCeilingKinds), std::end(kCeilingKinds), ", ")));
      // A copy rung is the most a kernel can move: a gate above it means nothing. A library
      // ceiling can be beaten (12_histogram's stretch asks for more than CUB), up to the bound
      // above which a figure is rejected as impossible.
      if (s.gate) {
        const double g = s.gate->fraction_of_ceiling;
        const bool library = s.ceiling.kind == "library";
        if (!(g > 0 && (library ? g < s.ceiling.impossible_above() : g <= 1)))
          out.push_back(fmt::format(
              "lesson {}: step '{}' gate {} is outside {}", l.id, s.name, g,
              library ? fmt::format("(0, {:g}) for a library ceiling", s.ceiling.impossible_above())
                      : std::string("(0, 1]")));
      }
    }
    std::set<std::string> wrong_names;
    for (const WrongKernel& w : l.wrong_kernels) {
      if (!wrong_names.insert(w.name).second || w.name == "stub" || w.name == "solution")
        out.push_back(fmt::format("lesson {}: wrong kernel name '{}' is reused", l.id, w.name));
      if (!l.find_step(w.step))
        out.push_back(fmt::format("lesson {}: wrong kernel '{}' is graded as unknown step '{}'",
                                  l.id, w.name, w.step));
      if (!w.sanitize.empty() && w.sanitize != "memcheck" && w.sanitize != "racecheck" &&
          w.sanitize != "synccheck" && w.sanitize != "initcheck")
        out.push_back(fmt::format("lesson {}: wrong kernel '{}' names unknown sanitizer tool '{}'",
                                  l.id, w.name, w.sanitize));
      if (w.diagnosis.empty())
        out.push_back(fmt::format("lesson {}: wrong kernel '{}' has no diagnosis", l.id, w.name));
    }
  }
  return out;
}

bool cc_at_least(const std::string& have, const std::string& need) {
  if (need.empty()) return true;
  auto parse = [](const std::string& s) {
    const auto dot = s.find('.');
    try {
      return std::make_pair(std::stoi(s.substr(0, dot)),
                            dot == std::string::npos ? 0 : std::stoi(s.substr(dot + 1)));
    } catch (const std::exception&) {
      return std::make_pair(0, 0);  // unreadable: treated as too old
    }
  };
  return parse(have) >= parse(need);
}

Selection resolve(const Manifest& manifest, const std::string& spec) {
  std::string lesson_part = spec;
  std::string step_part;
  if (auto dot = spec.find('.'); dot != std::string::npos) {
    lesson_part = spec.substr(0, dot);
    step_part = spec.substr(dot + 1);
  }
  std::string key = lesson_part;
  std::transform(key.begin(), key.end(), key.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  const Lesson* found = nullptr;
  const bool numeric = !key.empty() && std::all_of(key.begin(), key.end(), ::isdigit);
  for (const Lesson& l : manifest.lessons) {
    if (l.id == key || l.short_name() == key ||
        (numeric && key.size() <= 2 && std::stoi(key) == l.number())) {
      found = &l;
      break;
    }
  }
  if (!found) {
    throw UsageError(
        fmt::format("no lesson '{}'. Lessons are named like 07_transpose, 07, 7 or "
                    "transpose; run `grader` for the course map",
                    lesson_part));
  }
  Selection sel{found, nullptr};
  if (spec.find('.') != std::string::npos) {
    std::string step = step_part;
    std::transform(step.begin(), step.end(), step.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    sel.step = found->find_step(step);
    if (!sel.step) {
      std::string names;
      for (const Step& s : found->steps) names += (names.empty() ? "" : ", ") + s.name;
      throw UsageError(fmt::format("lesson {} has no step '{}'; its steps are: {}", found->id,
                                   step_part, names.empty() ? "(none yet)" : names));
    }
  }
  return sel;
}

}  // namespace course
