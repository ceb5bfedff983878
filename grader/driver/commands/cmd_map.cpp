// `grader` without arguments: the course map with the student's progress and what is next (as
// JSON under --json).
#include <fmt/format.h>

#include "command.hpp"
#include "course/report.hpp"
#include "progress.hpp"

namespace driver::cli {

int show_course_map(const Context& context) {
  // Under --json, the progress a script can read (it printed the text map).
  if (context.shared.json)
    fmt::print("{}\n", course_map_json(context.manifest, context.progress).dump(2));
  else
    fmt::print("{}", course_map(context.manifest, context.progress, context.color, context.self));
  return course::kExitOk;
}

}  // namespace driver::cli
