#include "selection.hpp"

#include <fmt/format.h>

namespace driver {

std::vector<course::Selection> select_lessons(const course::Manifest& manifest,
                                              const std::vector<std::string>& targets, bool all,
                                              const std::string& grader_command) {
  std::vector<course::Selection> selections;
  if (all)
    for (const course::Lesson& l : manifest.lessons)
      if (l.ready()) selections.push_back({&l, nullptr});
  for (const std::string& t : targets) {
    const course::Selection sel = course::resolve(manifest, t);
    if (!sel.lesson->ready())
      throw course::UsageError(fmt::format(
          "lesson {} is planned but not written yet; run `{}` for the lessons you can do now",
          sel.lesson->id, grader_command));
    selections.push_back(sel);
  }
  return selections;
}

}  // namespace driver
