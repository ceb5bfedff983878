// `grader profile LESSON`: Nsight Compute metrics and verdict lines (profile_command.hpp).
#include "command.hpp"
#include "course/report.hpp"
#include "profile_command.hpp"

namespace driver::cli {

namespace {

class Profile : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("profile",
                                 "Nsight Compute metrics and verdict lines for a lesson's kernels");
    app_->add_option("lesson", target_, "LESSON")->required();
    app_->add_option(
        "--write-profile", options_.write_profile,
        "also write the metrics and verdict lines into this PROFILE.md's profile:verdicts block");
    add_device_options(*app_, shared);
  }
  int run(Context& context) override {
    const std::optional<course::Selection> sel = context.resolve("grader profile", target_);
    if (!sel) return course::kExitUsage;
    return run_profile(*sel->lesson, context.grade_options(), options_);
  }

 private:
  std::string target_;
  ProfileOptions options_;
};

const CommandRegistrar profile_registrar{
    {"", 60, false, [] { return std::make_unique<Profile>(); }}};

}  // namespace

}  // namespace driver::cli
