// grader: the course's command line. It never touches CUDA itself: it builds a
// lesson's hidden-test target, runs it in watched child processes and reports.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include <fmt/format.h>

#include "course/config.hpp"
#include "course/manifest.hpp"
#include "course/report.hpp"
#include "course/sim.hpp"
#include "course/text_file.hpp"
#include "devcheck.hpp"
#include "grade.hpp"
#include "profile_command.hpp"
#include "progress.hpp"
#include "quiz_command.hpp"
#include "workflow.hpp"

namespace {

namespace fs = std::filesystem;

constexpr const char* kExitCodes =
    "Exit codes:\n"
    "  0  everything asked for passed\n"
    "  1  a step failed (wrong result, too slow, crashed or hung)\n"
    "  2  usage error: unknown lesson, step or option\n"
    "  3  this machine cannot run it: no usable CUDA GPU, or no CUDA compiler,\n"
    "     compute-sanitizer or Nsight Compute where one is needed; nothing was graded\n"
    "  4  the lesson's code did not compile\n"
    "  5  internal error of the grader (manifest, build tree)\n";

bool want_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && term && std::string(term) != "dumb";
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string self = argc > 0 ? argv[0] : "grader";
  CLI::App app{
      fmt::format("grader {}: grades the CUDA course's lessons on this machine's GPU.\n\n"
                  "  {} 07_transpose               grade a lesson (short forms: 07, 7, transpose)\n"
                  "  {} 07_transpose.tiled_padded  grade one step\n"
                  "  {}                            the course map with your progress\n"
                  "  {} hint 07_transpose.tiled    the next hint for a step\n"
                  "  {} sim --stride 8             the coalescing simulator (no GPU needed)\n",
                  course::config::kVersion, self, self, self, self, self)};
  app.footer(kExitCodes);
  app.set_version_flag("--version",
                       fmt::format("grader {} ({} configuration)", course::config::kVersion,
                                   course::config::kSolutions ? "solutions" : "exercises"));
  app.require_subcommand(0, 1);

  std::vector<std::string> targets;
  bool all = false, json_out = false, verbose = false, quiet = false, no_build = false;
  std::string junit_path, gradescope_path, color_mode = "auto", variant;
  unsigned long long seed = 0;
  int device = 0;
  double test_timeout = 120, kernel_timeout = 10;
  app.add_option("lessons", targets, "LESSON or LESSON.STEP to grade (e.g. 07_transpose, 7.tiled)");
  app.add_flag("--all", all, "grade every lesson that is ready");
  app.add_flag("--json", json_out, "print the report as JSON (format documented in README.md)");
  app.add_option("--junit", junit_path, "also write the report as JUnit XML to this file");
  app.add_option("--gradescope", gradescope_path,
                 "also write Gradescope results.json to this file");
  app.add_option("--seed", seed, "seed of the random test inputs (default: a new one each run)");
  app.add_option("--device", device, "CUDA device index")->check(CLI::NonNegativeNumber);
  app.add_option("--timeout", test_timeout, "seconds one hidden test may run before it is killed")
      ->check(CLI::PositiveNumber);
  app.add_option("--kernel-timeout", kernel_timeout,
                 "seconds one kernel may run before it counts as hung")
      ->check(CLI::PositiveNumber);
  app.add_option("--variant", variant,
                 "instructors: grade a build variant (solution, stub, or a wrong kernel; needs the "
                 "test configuration)");
  app.add_flag("--no-build", no_build, "do not rebuild the lesson first");
  bool sanitize = false;
  std::vector<std::string> sanitize_tools = {"memcheck", "racecheck", "synccheck"};
  app.add_flag("--sanitize", sanitize,
               "run under compute-sanitizer instead of timing (small shapes, untimed)");
  app.add_option("--sanitize-tools", sanitize_tools,
                 "tools for --sanitize, comma-separated (default memcheck,racecheck,synccheck)")
      ->delimiter(',')
      ->check(CLI::IsMember({"memcheck", "racecheck", "synccheck", "initcheck"}));
  bool quick_grade = false;
  app.add_flag("--quick", quick_grade,
               "skip compute-sanitizer memcheck after the tests (faster; not recorded as progress)")
      ->excludes("--sanitize")
      ->excludes("--sanitize-tools");
  app.add_flag("-v,--verbose", verbose, "show every failing test, not just the first ones");
  app.add_flag("-q,--quiet", quiet, "no progress messages on stderr");
  app.add_option("--color", color_mode, "colour: auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));

  CLI::App* hint = app.add_subcommand("hint", "show the next hint tier for a lesson step");
  std::string hint_target;
  bool hint_all = false;
  hint->add_option("target", hint_target, "LESSON or LESSON.STEP")->required();
  hint->add_flag("--all", hint_all, "show every tier at once");

  CLI::App* sim = app.add_subcommand("sim", "coalescing simulator: one warp's load, in sectors");
  course::sim::Access access;
  bool sweep = false, sim_plain = false;
  sim->add_option("--stride", access.stride, "elements between neighbouring lanes (0 = broadcast)")
      ->check(CLI::NonNegativeNumber);
  sim->add_option("--offset", access.offset, "elements from a 128-byte aligned base")
      ->check(CLI::NonNegativeNumber);
  sim->add_option("--width", access.element_bytes, "element size in bytes: 1, 2, 4, 8 or 16");
  sim->add_option("--lanes", access.lanes, "active lanes of the warp (1..32)");
  sim->add_flag("--sweep", sweep, "table over strides 1, 2, 4, 8, 16, 32");
  sim->add_flag("--plain", sim_plain, "no colour");

  CLI::App* quiz =
      app.add_subcommand("quiz", "the lesson's self-check quiz (asks in the terminal)");
  std::string quiz_target;
  driver::QuizCommandOptions quiz_options;
  quiz->add_option("lesson", quiz_target, "LESSON")->required();
  quiz->add_option("--answers-file", quiz_options.answers_file,
                   "answers, one per line, in question order (no prompts)");
  quiz->add_option("--answer", quiz_options.answers,
                   "an answer (repeat, in question order; no prompts)");
  quiz->add_option("--seed", quiz_options.seed,
                   "seed of the generated questions (default: new each attempt)");

  CLI::App* reset =
      app.add_subcommand("reset", "restore a lesson's stub (asks first, keeps a backup)");
  std::string reset_target;
  bool reset_yes = false;
  reset->add_option("lesson", reset_target, "LESSON")->required();
  reset->add_flag("--yes", reset_yes, "do not ask for confirmation");

  CLI::App* watch = app.add_subcommand("watch", "grade a lesson again every time you save");
  std::string watch_target;
  double watch_interval = 1.0;
  int watch_max = 0;
  watch->add_option("lesson", watch_target, "LESSON or LESSON.STEP")->required();
  watch->add_option("--interval", watch_interval, "seconds between checks for changes")
      ->check(CLI::Range(0.1, 60.0));
  watch->add_option("--max-runs", watch_max, "stop after N gradings (0 = never)");

  CLI::App* profile = app.add_subcommand(
      "profile", "Nsight Compute metrics and verdict lines for a lesson's kernels");
  std::string profile_target;
  driver::ProfileOptions profile_options;
  profile->add_option("lesson", profile_target, "LESSON")->required();
  profile->add_option(
      "--write-profile", profile_options.write_profile,
      "also write the metrics and verdict lines into this PROFILE.md's profile:verdicts block");

  CLI::App* dev = app.add_subcommand("dev", "instructor tools");
  CLI::App* check = dev->add_subcommand(
      "check", "solutions pass, stubs fail, wrong kernels are caught, manifest sane");
  dev->require_subcommand(1);
  driver::DevCheckOptions dev_options;
  check->add_option("--lesson", dev_options.lesson, "only this lesson");
  check->add_option("--only", dev_options.only,
                    "only this variant (solution, stub or a wrong kernel)");
  check
      ->add_option("--repeat", dev_options.repeat,
                   "grade each variant N times; verdicts must not flip")
      ->check(CLI::Range(1, 100));
  check->add_flag("--no-build", no_build, "do not rebuild targets first");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return course::kExitUsage;
  }

  const bool color = want_color(color_mode);
  course::Manifest manifest;
  try {
    manifest = course::Manifest::load(course::config::kManifest);
  } catch (const course::ManifestError& e) {
    fmt::print(stderr, "grader: {}\n", e.what());
    return course::kExitInternal;
  }
  // Progress lives beside the sources (it survives `rm -rf build`); GRADER_STATE_DIR moves it.
  const char* state_dir = std::getenv("GRADER_STATE_DIR");
  const fs::path state = state_dir && *state_dir ? fs::path(state_dir)
                                                 : fs::path(course::config::kSourceDir) / ".grader";
  const std::string progress_path = (state / "progress.json").string();
  driver::Progress progress(progress_path);
  // Also under --quiet: an unsaved hint tier or passed step would silently come back next time.
  const auto save_progress = [&] {
    if (!progress.save())
      fmt::print(stderr, "grader: could not save progress to {}\n", progress_path);
  };

  if (*sim) {
    if (std::string problem = course::sim::validate(access); !problem.empty()) {
      fmt::print(stderr, "grader sim: {}\n", problem);
      return course::kExitUsage;
    }
    const bool sim_color = !sim_plain && color;
    if (sweep && app.get_subcommand("sim")->count("--stride"))
      fmt::print(stderr, "grader sim: --sweep shows strides 1 to 32; --stride is ignored\n");
    if (sweep)
      fmt::print("{}", course::sim::sweep(access, {1, 2, 4, 8, 16, 32}));
    else
      fmt::print("{}", course::sim::draw(access, course::sim::simulate(access), sim_color));
    return course::kExitOk;
  }

  if (*quiz) {
    quiz_options.color = color;
    return driver::run_quiz_command(manifest, quiz_target, quiz_options, progress);
  }

  if (*reset) {
    try {
      driver::ResetOptions ro;
      ro.yes = reset_yes;
      ro.interactive = isatty(STDIN_FILENO);
      return driver::run_reset(*course::resolve(manifest, reset_target).lesson,
                               course::config::kSourceDir, state.string(), ro);
    } catch (const course::UsageError& e) {
      fmt::print(stderr, "grader reset: {}\n", e.what());
      return course::kExitUsage;
    }
  }

  if (*hint) {
    course::Selection sel;
    try {
      sel = course::resolve(manifest, hint_target);
    } catch (const course::UsageError& e) {
      fmt::print(stderr, "grader hint: {}\n", e.what());
      return course::kExitUsage;
    }
    const course::Step* step = sel.step;
    if (!step) {  // the first step not passed yet
      for (const course::Step& s : sel.lesson->steps)
        if (!progress.step_passed(sel.lesson->id, s.name)) {
          step = &s;
          break;
        }
      if (!step && !sel.lesson->steps.empty()) step = &sel.lesson->steps.back();
    }
    if (!step || step->hints.empty()) {
      fmt::print("{} has no hints yet.\n", sel.lesson->id);
      return course::kExitOk;
    }
    const int tiers = static_cast<int>(step->hints.size());
    const int shown =
        hint_all ? tiers : std::min(tiers, progress.hints_seen(sel.lesson->id, step->name) + 1);
    fmt::print("Hints for {}.{} — {}\n", sel.lesson->id, step->name, step->title);
    static const char* kTier[] = {"nudge", "idea", "what to change"};
    for (int i = 0; i < shown; ++i)
      fmt::print("\n  {}/{} ({}): {}\n", i + 1, tiers, i < 3 ? kTier[i] : "more", step->hints[i]);
    if (shown < tiers)
      fmt::print("\nRun the same command again for the next tier ({} more), or add --all.\n",
                 tiers - shown);
    else
      fmt::print(
          "\nThat is the last tier: all {} hints of this step are shown. The lesson's text "
          "explains the step in full: lessons/{}/README.md\n",
          tiers, sel.lesson->id);
    progress.set_hints_seen(sel.lesson->id, step->name,
                            std::max(shown, progress.hints_seen(sel.lesson->id, step->name)));
    save_progress();
    return course::kExitOk;
  }

  if (seed == 0) seed = std::random_device{}() % 999999999ull + 1;
  driver::GradeOptions g;
  g.binary_dir = course::config::kBinaryDir;
  g.lesson_bin_dir = course::config::kLessonBinDir;
  g.variant = variant;
  g.build = !no_build;
  g.seed = seed;
  g.device = device;
  g.test_timeout = test_timeout;
  g.kernel_timeout = kernel_timeout;
  g.memcheck = !quick_grade;
  g.progress = !quiet && !json_out;

  if (*check) return driver::dev_check(manifest, dev_options, g);
  if (*watch) {
    course::Selection sel;
    try {
      sel = course::resolve(manifest, watch_target);
    } catch (const course::UsageError& e) {
      fmt::print(stderr, "grader watch: {}\n", e.what());
      return course::kExitUsage;
    }
    return driver::run_watch(
        *sel.lesson, course::config::kSourceDir, watch_interval, watch_max, [&] {
          course::Report report;
          report.grader_version = course::config::kVersion;
          report.course_version = manifest.version;
          report.lessons.push_back(driver::grade(sel, g, report.device));
          if (progress.update(report.lessons.back(), now_iso())) save_progress();
          fmt::print("{}", course::to_text(report, course::TextOptions{color, verbose, self}));
          return report.exit_code();
        });
  }
  if (*profile) {
    try {
      return driver::run_profile(*course::resolve(manifest, profile_target).lesson, g,
                                 profile_options);
    } catch (const course::UsageError& e) {
      fmt::print(stderr, "grader profile: {}\n", e.what());
      return course::kExitUsage;
    }
  }

  if (targets.empty() && !all) {
    fmt::print("{}", driver::course_map(manifest, progress, color, self));
    return course::kExitOk;
  }
  if (!variant.empty() && !course::config::kDevTargets) {
    fmt::print(stderr, "grader: --variant needs the test configuration (cmake --preset test)\n");
    return course::kExitUsage;
  }

  std::vector<course::Selection> selections;
  try {
    if (all) {
      for (const course::Lesson& l : manifest.lessons)
        if (l.ready()) selections.push_back({&l, nullptr});
    }
    for (const std::string& t : targets) {
      selections.push_back(course::resolve(manifest, t));
      if (!selections.back().lesson->ready())
        throw course::UsageError(fmt::format(
            "lesson {} is planned but not written yet; run `{}` for the lessons you can do now",
            selections.back().lesson->id, self));
    }
  } catch (const course::UsageError& e) {
    fmt::print(stderr, "grader: {}\n", e.what());
    return course::kExitUsage;
  }

  course::Report report;
  report.grader_version = course::config::kVersion;
  report.course_version = manifest.version;
  report.configuration = course::config::kSolutions ? "solutions" : "exercises";
  // Check the output files before spending GPU time: a typo in a path must not cost the run.
  for (const std::string* path : {&junit_path, &gradescope_path}) {
    if (!path->empty() && !std::ofstream(*path)) {
      fmt::print(stderr, "grader: cannot write {}\n", *path);
      return course::kExitUsage;
    }
  }
  const bool sanitizing = sanitize || app.count("--sanitize-tools") > 0;
  for (const course::Selection& sel : selections) {
    course::LessonReport r = sanitizing ? driver::sanitize(sel, g, sanitize_tools, report.device)
                                        : driver::grade(sel, g, report.device);
    report.lessons.push_back(r);  // without a GPU each lesson is still built: compile errors show
  }
  // The file is written only when a lesson was recorded: a --variant run (never recorded), an
  // untimed --sanitize run (says nothing about the gates) or a lesson that graded no step leaves
  // it as it was, and does not create it.
  bool recorded = false;
  if (!sanitizing)
    for (const course::LessonReport& r : report.lessons) recorded |= progress.update(r, now_iso());
  if (recorded) save_progress();

  const std::string text = course::to_text(report, course::TextOptions{color, verbose, self});
  if (json_out)
    fmt::print("{}\n", course::to_json(report).dump(2));
  else
    fmt::print("{}", text);
  if (!junit_path.empty() && !course::write_text_atomically(junit_path, course::to_junit(report))) {
    fmt::print(stderr, "grader: cannot write {}\n", junit_path);
    return course::kExitUsage;
  }
  if (!gradescope_path.empty()) {
    const std::string plain = course::to_text(report, course::TextOptions{false, true, self});
    if (!course::write_text_atomically(gradescope_path,
                                       course::to_gradescope(report, plain).dump(2) + "\n")) {
      fmt::print(stderr, "grader: cannot write {}\n", gradescope_path);
      return course::kExitUsage;
    }
  }
  return report.exit_code();
}
