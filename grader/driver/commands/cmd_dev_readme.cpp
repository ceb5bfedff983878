// `grader dev readme`: the README's course map, generated from the manifest. Prints the table,
// or with --write FILE replaces the <!-- course-map:begin --> ... <!-- course-map:end --> block
// of FILE (`grader dev check` reports a stale block).
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
    app_ = dev.add_subcommand("readme", "the README's course map, generated from the manifest");
    app_->add_option("--write", path_,
                     "replace the course-map block of this README (e.g. README.md) instead of "
                     "printing the table");
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
    fmt::print(stderr, "wrote the course map into {}\n", path_);
    return course::kExitOk;
  }

 private:
  std::string path_;
};

const CommandRegistrar registrar{{"dev", 20, false, [] { return std::make_unique<DevReadme>(); }}};

}  // namespace

}  // namespace driver::cli
