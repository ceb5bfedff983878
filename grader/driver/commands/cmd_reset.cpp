// `grader reset LESSON`: restore a lesson's stub as the course shipped it (workflow.hpp).
#include <unistd.h>

#include <fmt/format.h>

#include "command.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "workflow.hpp"

namespace driver::cli {

namespace {

class Reset : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("reset", "restore a lesson's stub (asks first, keeps a backup)");
    app_->add_option("lesson", target_, "LESSON")->required();
    app_->add_flag("--yes", yes_, "do not ask for confirmation");
    add_color_option(*app_, shared);
  }
  int run(Context& context) override {
    const std::optional<course::Selection> sel = context.resolve_ready("grader reset", target_);
    if (!sel) return course::kExitUsage;
    // A step's name would reset every file of its lesson: say what reset restores instead.
    if (sel->step)
      return context.usage_error(
          "grader reset",
          fmt::format("reset restores a whole lesson's stub files, not one step's: `grader reset "
                      "{}` restores every file of exercises/{}/ (it asks first and keeps a backup)",
                      sel->lesson->id, sel->lesson->id));
    ResetOptions options;
    options.yes = yes_;
    options.interactive = isatty(STDIN_FILENO);
    return run_reset(*sel->lesson, course::config::kSourceDir, context.state_dir, options);
  }

 private:
  std::string target_;
  bool yes_ = false;
};

const CommandRegistrar reset_registrar{{"", 40, false, [] { return std::make_unique<Reset>(); }}};

}  // namespace

}  // namespace driver::cli
