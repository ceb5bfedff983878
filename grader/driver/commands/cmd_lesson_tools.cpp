// The lessons' own tools (`grader sim`, ...): each registered from its lesson's folder
// (course/extensions.hpp) becomes a subcommand here.
#include <fmt/format.h>

#include "command.hpp"
#include "course/extensions.hpp"
#include "course/report.hpp"

namespace driver::cli {

namespace {

class LessonTools : public Command {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    for (const course::ext::ToolInfo& info : course::ext::tools()) {
      CLI::App* sub = parent.add_subcommand(info.name, info.help);
      std::unique_ptr<course::ext::Tool> tool = info.make();
      tool->add_options(*sub);
      add_color_option(*sub, shared);
      tools_.push_back({sub, std::move(tool)});
    }
  }
  bool chosen() const override {
    for (const Entry& e : tools_)
      if (e.app->parsed()) return true;
    return false;
  }
  int run(Context& context) override {
    for (const Entry& e : tools_)
      if (e.app->parsed()) return e.tool->run({context.manifest, context.color, context.self});
    return course::kExitInternal;
  }

 private:
  struct Entry {
    CLI::App* app;
    std::unique_ptr<course::ext::Tool> tool;
  };
  std::vector<Entry> tools_;
};

const CommandRegistrar lesson_tools_registrar{
    {"", 20, false, [] { return std::make_unique<LessonTools>(); }}};

}  // namespace

}  // namespace driver::cli
