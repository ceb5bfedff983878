// `grader` without arguments: the course map with the student's progress and what is next.
#include <fmt/format.h>

#include "command.hpp"
#include "course/report.hpp"
#include "progress.hpp"

namespace driver::cli {

int show_course_map(const Context& context) {
  fmt::print("{}", course_map(context.manifest, context.progress, context.color, context.self));
  return course::kExitOk;
}

}  // namespace driver::cli
