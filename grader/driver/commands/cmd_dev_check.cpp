// `grader dev check`: solutions pass, stubs fail, wrong kernels are caught, the course is sane.
#include "command.hpp"
#include "course/cli_checks.hpp"
#include "devcheck.hpp"

namespace driver::cli {

namespace {

class DevCheck : public Subcommand {
 public:
  void add_to(CLI::App& dev, SharedOptions& shared) override {
    app_ = dev.add_subcommand(
        "check", "solutions pass, stubs fail, wrong kernels are caught, manifest sane");
    app_->add_option("--lesson", options_.lesson, "only this lesson");
    app_->add_option("--only", options_.only,
                     "only this variant (solution, stub or a wrong kernel)");
    app_->add_option("--repeat", options_.repeat,
                     "grade each variant N times; verdicts must not flip")
        ->check(course::cli::whole_number(1, 100));
    app_->add_flag("--no-build", shared.no_build, "do not rebuild targets first");
    app_->add_flag("--skip-large", options_.skip_large,
                   "skip the cases that need several GiB and the correctness cases past 2^23 "
                   "elements, as --quick does for a grade (memcheck still runs)");
    add_color_option(*app_, shared);
    app_->footer(
        "Exit codes:\n"
        "  0  every check ran, all as expected\n"
        "  1  drift: a check found a problem\n"
        "  2  usage error: unknown --lesson or --only\n"
        "  3  what ran is as expected, but checks were skipped here (no GPU, a lesson this\n"
        "     GPU cannot grade, a build without the dev targets, or no compute-sanitizer): not\n"
        "     a pass; ctest reports it as skipped\n");
  }
  int run(Context& context) override {
    return dev_check(context.manifest, options_, context.grade_options());
  }

 private:
  DevCheckOptions options_;
};

const CommandRegistrar dev_check_registrar{
    {"dev", 10, false, [] { return std::make_unique<DevCheck>(); }}};

}  // namespace

}  // namespace driver::cli
