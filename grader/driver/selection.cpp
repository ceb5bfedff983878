#include "selection.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace driver {

namespace {

// Each lesson and step once, in the order first asked: a repeated target, or a step of a lesson
// that is graded whole, would grade (and time) the same kernels twice.
std::vector<course::Selection> unique(const std::vector<course::Selection>& asked) {
  std::vector<course::Selection> out;
  for (const course::Selection& s : asked) {
    const bool covered = std::any_of(out.begin(), out.end(), [&](const course::Selection& o) {
      return o.lesson == s.lesson && (o.step == nullptr || o.step == s.step);
    });
    if (covered) continue;
    const auto same_lesson = [&](const course::Selection& o) { return o.lesson == s.lesson; };
    const auto first = std::find_if(out.begin(), out.end(), same_lesson);
    if (!s.step && first != out.end()) {  // the whole lesson, where its first step asked was
      *first = s;
      out.erase(std::remove_if(first + 1, out.end(), same_lesson), out.end());
      continue;
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

course::Selection select_ready(const course::Manifest& manifest, const std::string& spec,
                               const std::string& grader_command) {
  const course::Selection sel = course::resolve(manifest, spec);
  if (!sel.lesson->ready())
    throw course::UsageError(fmt::format(
        "lesson {} is planned but not written yet; run `{}` for the lessons you can do now",
        sel.lesson->id, grader_command));
  return sel;
}

std::vector<course::Selection> select_lessons(const course::Manifest& manifest,
                                              const std::vector<std::string>& targets, bool all,
                                              const std::string& grader_command) {
  std::vector<course::Selection> selections;
  if (all)
    for (const course::Lesson& l : manifest.lessons)
      if (l.ready()) selections.push_back({&l, nullptr});
  for (const std::string& t : targets)
    selections.push_back(select_ready(manifest, t, grader_command));
  return unique(selections);
}

}  // namespace driver
