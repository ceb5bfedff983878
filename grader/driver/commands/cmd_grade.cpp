// `grader LESSON[.STEP] ...` and `grader --all`: grade, print the report, write the
// machine-readable files, record progress. Without a lesson: the course map (cmd_map.cpp).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "command.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"
#include "progress.hpp"
#include "selection.hpp"

namespace driver::cli {

namespace {

class Grade : public Command {
 public:
  void add_to(CLI::App& app, SharedOptions& shared) override {
    app_ = &app;
    app.add_option("lessons", targets_,
                   "LESSON or LESSON.STEP to grade (a lesson id, number or name)");
    app.add_flag("--all", all_, "grade every lesson that is ready");
    app.add_flag("--json", shared.json,
                 "print the report as JSON (format documented in docs/REFERENCE.md)");
    app.add_option(
        "--junit", junit_path_,
        "also write the report as JUnit XML to this file (its folder is made if missing)");
    app.add_option(
        "--gradescope", gradescope_path_,
        "also write Gradescope results.json to this file (its folder is made if missing)");
    add_run_options(app, shared);
    app.add_option(
        "--variant", shared.variant,
        "instructors: grade a build variant (solution, stub, or a wrong kernel; needs the "
        "test configuration)");
    app.add_flag("--sanitize", sanitize_,
                 "run under compute-sanitizer instead of timing (small shapes, untimed)");
    app.add_option("--sanitize-tools", sanitize_tools_,
                   "tools for --sanitize, comma-separated (default memcheck,racecheck,synccheck)")
        ->delimiter(',')
        ->check(CLI::IsMember({"memcheck", "racecheck", "synccheck", "initcheck"}));
    app.add_flag("--quick", quick_,
                 "skip compute-sanitizer memcheck after the tests, the large cases (several GiB, "
                 "or correctness cases past 2^23 elements) and, on a whole lesson, Nsight "
                 "Compute (faster; not recorded as progress)")
        ->excludes("--sanitize")
        ->excludes("--sanitize-tools");
  }
  bool chosen() const override { return true; }  // the fallback: runs when no subcommand did
  int run(Context& context) override;

 private:
  int check_output_files(const Context& context) const;
  int write_output_files(const Context& context, const course::Report& report) const;

  CLI::App* app_ = nullptr;
  std::vector<std::string> targets_;
  bool all_ = false, sanitize_ = false, quick_ = false;
  std::string junit_path_, gradescope_path_;
  std::vector<std::string> sanitize_tools_ = {"memcheck", "racecheck", "synccheck"};
};

int Grade::run(Context& context) {
  const SharedOptions& shared = context.shared;
  if (targets_.empty() && !all_) return show_course_map(context);
  if (!shared.variant.empty() && !course::config::kDevTargets)
    return context.usage_error("grader",
                               "--variant needs the test configuration (cmake --preset test)");
  std::vector<course::Selection> selections;
  try {
    selections = select_lessons(context.manifest, targets_, all_, context.self);
  } catch (const course::UsageError& e) {
    return context.usage_error("grader", e.what());
  }
  // Check the output files before spending GPU time: a typo in a path must not cost the run.
  if (const int rc = check_output_files(context); rc != course::kExitOk) return rc;

  course::Report report;
  report.grader_version = course::config::kVersion;
  report.course_version = context.manifest.version;
  report.configuration = course::config::kSolutions ? "solutions" : "exercises";
  GradeOptions g = context.grade_options();
  if (quick_) g.make_quick();
  if (sanitize_ || app_->count("--sanitize-tools") > 0) {
    g.kind = course::RunKind::sanitize;
    g.sanitize_tools = sanitize_tools_;
  }
  for (const course::Selection& sel : selections)  // without a GPU each lesson is still built
    report.lessons.push_back(grade(sel, g, report.device));
  // The file is written only when a lesson was recorded (records_progress()): any other run
  // leaves it as it was, and does not create it.
  bool recorded = false;
  for (const course::LessonReport& r : report.lessons)
    recorded |= context.progress.update(r, now_iso());
  if (recorded) context.save_progress();

  if (shared.json)
    fmt::print("{}\n", course::to_json(report).dump(2));
  else
    fmt::print("{}", course::to_text(
                         report, course::TextOptions{context.color, shared.verbose, context.self}));
  if (const int rc = write_output_files(context, report); rc != course::kExitOk) return rc;
  return report.exit_code();
}

// Before grading, so that a path that cannot be written costs no grading time. A missing folder is
// made, as pytest does for --junitxml (CI jobs name a folder of reports that does not exist yet).
int Grade::check_output_files(const Context& context) const {
  for (const std::string* path : {&junit_path_, &gradescope_path_}) {
    if (path->empty()) continue;
    std::error_code ignored;  // a folder that cannot be made fails the open below, which says so
    const std::filesystem::path folder = std::filesystem::path(*path).parent_path();
    if (!folder.empty()) std::filesystem::create_directories(folder, ignored);
    errno = 0;
    if (!std::ofstream(*path, std::ios::app)) {  // app: an old file survives
      const int open_error = errno;  // before the check below, whose stat() may set errno
      const std::string why = std::filesystem::is_directory(*path, ignored)
                                  ? "it is a folder: name a file in it"
                              : open_error != 0 ? std::strerror(open_error)
                                                : "it cannot be opened";
      return context.usage_error("grader", fmt::format("cannot write {} ({})", *path, why));
    }
  }
  return course::kExitOk;
}

// After the report: on stderr only, so that --json's stdout stays one JSON object.
int Grade::write_output_files(const Context& context, const course::Report& report) const {
  std::string failed;
  if (!junit_path_.empty() && !course::write_text_atomically(junit_path_, course::to_junit(report)))
    failed = junit_path_;
  const std::string plain = course::to_text(report, course::TextOptions{false, true, context.self});
  if (failed.empty() && !gradescope_path_.empty() &&
      !course::write_text_atomically(gradescope_path_,
                                     course::to_gradescope(report, plain).dump(2) + "\n"))
    failed = gradescope_path_;
  if (failed.empty()) return course::kExitOk;
  fmt::print(stderr, "grader: cannot write {}\n", failed);
  return course::kExitUsage;
}

const CommandRegistrar grade_registrar{{"", 0, true, [] { return std::make_unique<Grade>(); }}};

}  // namespace

}  // namespace driver::cli
