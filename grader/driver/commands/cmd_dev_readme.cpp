// `grader dev readme`: the README's generated tables: the course map (from the manifest) and the
// exit codes. Prints the course map, or with --write FILE replaces the blocks FILE has
// (<!-- course-map:begin --> ... <!-- course-map:end -->, <!-- exit-codes:begin --> ...
// <!-- exit-codes:end -->); `grader dev check` reports a stale block.
#include <fmt/format.h>

#include "command.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "readme_map.hpp"

namespace driver::cli {

namespace {

class DevReadme : public Subcommand {
 public:
  void add_to(CLI::App& dev, SharedOptions& shared) override {
    app_ = dev.add_subcommand(
        "readme", "the README's course map and exit-code table, generated from their sources");
    app_->add_option("--write", path_,
                     "replace the generated blocks of this file (README.md: course map and exit "
                     "codes; docs/INSTRUCTORS.md: exit codes) instead of printing the course map");
    add_color_option(*app_, shared);
  }
  int run(Context& context) override {
    if (path_.empty()) {
      fmt::print("{}", course_map_markdown(context.manifest, course::config::kSourceDir));
      return course::kExitOk;
    }
    const std::string error =
        write_readme_course_map(context.manifest, course::config::kSourceDir, path_);
    if (!error.empty()) return context.usage_error("grader dev readme", error);
    fmt::print(stderr, "wrote the generated tables into {}\n", path_);
    return course::kExitOk;
  }

 private:
  std::string path_;
};

const CommandRegistrar dev_readme_registrar{
    {"dev", 20, false, [] { return std::make_unique<DevReadme>(); }}};

}  // namespace

}  // namespace driver::cli
