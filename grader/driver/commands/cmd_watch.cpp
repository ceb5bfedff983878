// `grader watch LESSON[.STEP]`: grade again every time a file of the exercise changes.
#include <fmt/format.h>

#include "command.hpp"
#include "course/cli_checks.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "workflow.hpp"

namespace driver::cli {

namespace {

class Watch : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("watch", "grade a lesson again every time you save");
    app_->add_option("lesson", target_, "LESSON or LESSON.STEP")->required();
    app_->add_option("--interval", interval_, "seconds between checks for changes")
        ->check(course::cli::seconds(0.1, 60));
    app_->add_option("--max-runs", max_runs_, "stop after N gradings (0 = never)")
        ->check(course::cli::whole_number(0, 1000000));
    add_run_options(*app_, shared);
  }
  int run(Context& context) override;

 private:
  std::string target_;
  double interval_ = 1.0;
  int max_runs_ = 0;
};

int Watch::run(Context& context) {
  const std::optional<course::Selection> selected = context.resolve_ready("grader watch", target_);
  if (!selected) return course::kExitUsage;
  const course::Selection sel = *selected;
  const GradeOptions g = context.grade_options();
  return run_watch(*sel.lesson, course::config::kSourceDir, interval_, max_runs_, [&] {
    course::Report report;
    report.grader_version = course::config::kVersion;
    report.course_version = context.manifest.version;
    report.lessons.push_back(grade(sel, g, report.device));
    if (context.progress.update(report.lessons.back(), now_iso())) context.save_progress();
    fmt::print("{}",
               course::to_text(report, course::TextOptions{context.color, context.shared.verbose,
                                                           context.self}));
    return report.exit_code();
  });
}

const CommandRegistrar watch_registrar{{"", 50, false, [] { return std::make_unique<Watch>(); }}};

}  // namespace

}  // namespace driver::cli
