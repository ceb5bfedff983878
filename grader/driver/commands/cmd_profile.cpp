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
    const course::Lesson* lesson = nullptr;
    try {
      lesson = course::resolve(context.manifest, target_).lesson;
    } catch (const course::UsageError& e) {
      return context.usage_error("grader profile", e.what());
    }
    return run_profile(*lesson, context.grade_options(), options_);
  }

 private:
  std::string target_;
  ProfileOptions options_;
};

const CommandRegistrar registrar{{"", 60, false, [] { return std::make_unique<Profile>(); }}};

}  // namespace

}  // namespace driver::cli
