// `grader dev calibrate`: every gate's margins on this GPU (calibrate.hpp).
#include "calibrate.hpp"
#include "command.hpp"
#include "course/cli_checks.hpp"

namespace driver::cli {

namespace {

class DevCalibrate : public Subcommand {
 public:
  void add_to(CLI::App& dev, SharedOptions& shared) override {
    app_ = dev.add_subcommand(
        "calibrate",
        "every gate's margins on this GPU: the solution's and the nearest wrong kernel's");
    app_->add_option("--lesson", options_.lesson, "only this lesson");
    app_->add_option("--repeat", options_.repeat,
                     "runs of each solution and wrong kernel (default 3)")
        ->check(course::cli::whole_number(1, 100));
    app_->add_flag("--write", options_.write, "also write the table into docs/measured/<GPU>.md");
    app_->add_flag("--no-build", shared.no_build, "do not rebuild targets first");
    add_color_option(*app_, shared);
    app_->footer(
        "Exit codes:\n"
        "  0  every gated step measured, no margin flagged\n"
        "  1  a margin the table flags (too narrow, or a kernel that gave no figure)\n"
        "  2  usage error: an unknown --lesson, no step with a speed gate, or the table could\n"
        "     not be written\n"
        "  3  nothing measured here: no GPU, or a build without the solution and wrong-kernel\n"
        "     variants (use the test configuration)\n");
  }
  int run(Context& context) override {
    return dev_calibrate(context.manifest, options_, context.grade_options());
  }

 private:
  CalibrateOptions options_;
};

const CommandRegistrar dev_calibrate_registrar{
    {"dev", 15, false, [] { return std::make_unique<DevCalibrate>(); }}};

}  // namespace

}  // namespace driver::cli
