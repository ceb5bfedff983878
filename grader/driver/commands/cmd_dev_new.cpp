// `grader dev new NN_name`: a lesson skeleton that builds, whose solution passes and whose stub
// fails (devnew.hpp), from grader/templates/lesson/; then the README's course map, regenerated.
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "course/config.hpp"
#include "course/layout.hpp"
#include "course/manifest.hpp"
#include "course/report.hpp"
#include "devnew.hpp"
#include "readme_map.hpp"

namespace driver::cli {

namespace {

class DevNew : public Subcommand {
 public:
  void add_to(CLI::App& dev, SharedOptions& shared) override {
    app_ =
        dev.add_subcommand("new", "write a lesson skeleton: it builds, its stub fails every step");
    app_->add_option("lesson", id_, "the new lesson's id, NN_name (e.g. 16_my_topic)")->required();
    add_color_option(*app_, shared);
  }
  int run(Context&) override {
    const std::string src = course::config::kSourceDir;
    const int rc = dev_new(id_, src, src + "/grader/templates/lesson", std::cout);
    if (rc != course::kExitOk) return rc;
    // The new entry changes the course map: keep the README's block current (dev check checks it).
    try {
      const course::Manifest m = course::Manifest::load(course::layout::manifest(src).string());
      if (const std::string error = write_readme_course_map(m, src, src + "/README.md");
          !error.empty())
        fmt::print(stderr, "grader dev new: README.md's course map not updated: {}\n", error);
      else
        fmt::print("updated the course map in README.md\n");
    } catch (const course::ManifestError& e) {
      fmt::print(stderr, "grader dev new: {}\n", e.what());
      return course::kExitInternal;
    }
    return course::kExitOk;
  }

 private:
  std::string id_;
};

const CommandRegistrar dev_new_registrar{
    {"dev", 30, false, [] { return std::make_unique<DevNew>(); }}};

}  // namespace

}  // namespace driver::cli
