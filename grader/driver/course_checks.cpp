#include "course_checks.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "course/layout.hpp"
#include "course/quiz.hpp"
#include "course/text_file.hpp"

namespace driver {

namespace fs = std::filesystem;
namespace quiz = course::quiz;

namespace {

constexpr int kHintTiers = 3;

std::string normalized(const std::string& text) {
  std::string out;
  for (unsigned char c : text)
    if (!std::isspace(c)) out += static_cast<char>(std::tolower(c));
  return out;
}

// The quiz of a ready lesson, or its problems.
std::optional<quiz::Quiz> load_quiz(const course::Lesson& lesson, const course::Manifest& m,
                                    const fs::path& path, std::vector<std::string>& out) {
  const std::string rel = course::layout::quiz("", lesson.id).generic_string();
  if (!fs::exists(path)) {
    out.push_back(fmt::format("{}: {} (the self-check quiz) is missing", lesson.id, rel));
    return std::nullopt;
  }
  try {
    quiz::Quiz q = quiz::Quiz::load(path.string());
    for (const std::string& p : quiz::problems(q, m)) out.push_back(rel + ": " + p);
    if (q.lesson != lesson.id)
      out.push_back(fmt::format("{}: says it is the quiz of \"{}\"", rel, q.lesson));
    return q;
  } catch (const quiz::QuizError& e) {
    std::istringstream lines(e.what());
    std::string line;
    std::getline(lines, line);  // "<path>: N problems:"
    bool any = false;
    while (std::getline(lines, line)) {
      out.push_back(rel + ": " + line.substr(line.find_first_not_of(' ')));
      any = true;
    }
    if (!any) out.push_back(e.what());
    return std::nullopt;
  }
}

// Every answer written in the quiz is pinned by lessons/<id>/quiz_test.cpp, and every pin there
// is for a question of the quiz.
void check_pins(const course::Lesson& lesson, const quiz::Quiz& q, const fs::path& source,
                std::vector<std::string>& out) {
  const std::string rel =
      (course::layout::lesson_dir("", lesson.id) / "quiz_test.cpp").generic_string();
  std::map<std::string, std::string> pins =
      pinned_question_ids(course::read_text((source / rel).string()).value_or(""));
  for (const quiz::Question& question : q.questions) {
    if (question.kind != quiz::Kind::choice && question.kind != quiz::Kind::numeric) continue;
    const std::string kind = question.kind == quiz::Kind::choice ? "choice" : "numeric";
    const auto it = pins.find(question.id);
    if (it == pins.end())
      out.push_back(fmt::format("{}: {} question \"{}\" has no pin in {} ({})", lesson.id, kind,
                                question.id, rel,
                                kind == "choice" ? "QUIZ_CHOICE(\"" + question.id + "\", q)"
                                                 : "QUIZ_NUMERIC(\"" + question.id + "\")"));
    else if (it->second != kind)
      out.push_back(fmt::format("{}: {} pins {} question \"{}\" as {}", lesson.id, rel, kind,
                                question.id, it->second));
    if (it != pins.end()) pins.erase(it);
  }
  for (const auto& [id, kind] : pins)
    out.push_back(
        fmt::format("{}: {} pins \"{}\", which is no choice or numeric question of its "
                    "quiz",
                    lesson.id, rel, id));
}

}  // namespace

std::map<std::string, std::string> pinned_question_ids(const std::string& source) {
  static const std::regex pin(R"re(QUIZ_(CHOICE|NUMERIC)\s*\(\s*"([^"]+)")re");
  std::map<std::string, std::string> ids;
  std::istringstream lines(source);
  for (std::string line; std::getline(lines, line);) {
    line = line.substr(0, line.find("//"));
    std::smatch m;
    if (std::regex_search(line, m, pin)) ids[m[2]] = m[1] == "CHOICE" ? "choice" : "numeric";
  }
  return ids;
}

std::vector<std::string> quiz_problems(const course::Manifest& manifest,
                                       const std::string& source_dir) {
  std::vector<std::string> out;
  const fs::path source(source_dir);
  for (const course::Lesson& lesson : manifest.lessons) {
    if (!lesson.ready()) continue;
    const std::optional<quiz::Quiz> q =
        load_quiz(lesson, manifest, course::layout::quiz(source, lesson.id), out);
    if (q) check_pins(lesson, *q, source, out);
  }
  return out;
}

std::vector<std::string> hint_problems(const course::Manifest& manifest) {
  std::vector<std::string> out;
  for (const course::Lesson& lesson : manifest.lessons) {
    if (!lesson.ready()) continue;
    for (const course::Step& step : lesson.steps) {
      const std::string where = lesson.id + "." + step.name;
      if (static_cast<int>(step.hints.size()) != kHintTiers)
        out.push_back(
            fmt::format("{}: {} hint tiers; a step needs {} (a nudge, the idea, what to "
                        "change)",
                        where, step.hints.size(), kHintTiers));
      std::set<std::string> seen;
      for (std::size_t k = 0; k < step.hints.size(); ++k) {
        const std::string text = normalized(step.hints[k]);
        if (text.empty())
          out.push_back(fmt::format("{}: hint tier {} is empty", where, k + 1));
        else if (!seen.insert(text).second)
          out.push_back(fmt::format("{}: hint tier {} repeats an earlier tier", where, k + 1));
      }
    }
  }
  return out;
}

}  // namespace driver
