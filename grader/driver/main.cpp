// grader: the course's command line. It never touches CUDA itself: it builds a lesson's
// hidden-test target, runs it in watched child processes and reports. Each command is a file of
// commands/ that registers itself; main parses the command line and runs the chosen command.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "checkout.hpp"
#include "commands/command.hpp"
#include "course/config.hpp"
#include "course/extensions.hpp"
#include "course/manifest.hpp"
#include "course/report.hpp"
#include "process.hpp"
#include "progress.hpp"

namespace {

namespace fs = std::filesystem;
using driver::cli::Command;
using driver::cli::CommandSpec;

bool want_color(const std::string& mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char* term = std::getenv("TERM");
  return isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && term && std::string(term) != "dumb";
}

// The help's examples, taken from the course itself: its first ready lesson and the lessons'
// tools (placeholders when the manifest could not be read: --help still works).
std::string description(const std::string& self, const course::Manifest& manifest) {
  const course::Lesson* first = nullptr;
  for (const course::Lesson& l : manifest.lessons)
    if (l.ready() && !l.required_steps().empty() && !first) first = &l;
  const std::string id = first ? first->id : "NN_name";
  const std::string short_forms =
      first ? fmt::format("{:02d}, {}, {}", first->number(), first->number(), first->short_name())
            : "NN, N, name";
  std::vector<std::pair<std::string, std::string>> examples = {
      {id, fmt::format("grade a lesson (short forms: {})", short_forms)},
      {id + "." + (first ? first->required_steps().back()->name : "STEP"), "grade one step"},
      {"", "the course map with your progress"},
      {"hint " + id + "." + (first ? first->steps.front().name : "STEP"),
       "the next hint for a step"}};
  for (const course::ext::ToolInfo& tool : course::ext::tools())
    examples.push_back({tool.name + (tool.example.empty() ? "" : " " + tool.example), tool.help});
  std::size_t width = 0;
  for (const auto& [args, what] : examples) width = std::max(width, args.size());
  std::string text =
      fmt::format("grader {}: grades the CUDA course's lessons on this machine's GPU.\n\n",
                  course::config::kVersion);
  for (const auto& [args, what] : examples)
    text += fmt::format("  {} {:<{}}  {}\n", self, args, width, what);
  return text;
}

// The registered commands, made and added to `app`: top-level ones first (in their order), then
// the subcommands of each (e.g. `dev check` under `dev`).
struct Made {
  std::unique_ptr<Command> command;
  bool fallback = false;
};
std::vector<Made> add_commands(CLI::App& app, driver::cli::SharedOptions& shared) {
  std::vector<CommandSpec> specs = driver::cli::registered_commands();
  std::stable_sort(specs.begin(), specs.end(), [](const CommandSpec& a, const CommandSpec& b) {
    return std::make_pair(!a.parent.empty(), a.order) < std::make_pair(!b.parent.empty(), b.order);
  });
  std::vector<Made> made;
  for (const CommandSpec& spec : specs) {
    CLI::App* parent = spec.parent.empty() ? &app : app.get_subcommand(spec.parent);
    made.push_back({spec.make(), spec.fallback});
    made.back().command->add_to(*parent, shared);
  }
  return made;
}

// Parses the command line; returns an exit code to stop with, or -1 to go on.
int parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Under --json the error is JSON too: a script reading stdout must not get plain text.
    if (std::any_of(argv + 1, argv + argc, [](const char* a) { return !std::strcmp(a, "--json"); }))
      fmt::print("{}\n", driver::cli::json_usage_error(e.what()).dump(2));
    else
      app.exit(e);
    return course::kExitUsage;
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string self = argc > 0 ? argv[0] : "grader";
  course::Manifest manifest;
  std::string manifest_error;
  try {
    manifest = course::Manifest::load(course::config::kManifest);
  } catch (const course::ManifestError& e) {
    manifest_error = e.what();
  }
  CLI::App app{description(self, manifest)};
  app.set_version_flag("--version",
                       fmt::format("grader {} ({} configuration)", course::config::kVersion,
                                   course::config::kSolutions ? "solutions" : "exercises"));
  app.require_subcommand(0, 1);
  driver::cli::SharedOptions shared;
  std::vector<Made> commands;
  try {
    commands = add_commands(app, shared);
  } catch (const CLI::Error& e) {  // e.g. a lesson's tool named like one of the grader's commands
    fmt::print(stderr, "grader: internal error: the command line cannot be built: {}\n", e.what());
    return course::kExitInternal;
  }
  // After the commands: CLI11 copies a parent's footer into every subcommand made after it, and
  // the exit codes are the grader's, said once in `grader --help` (a command with codes of its
  // own, such as `dev check`, says those in its help).
  app.footer(course::exit_codes_text());
  if (const int stop = parse(app, argc, argv); stop >= 0) return stop;
  // Nothing can be graded (exit code 5): said on stderr, or as the error object under --json.
  const auto cannot_run = [&](const std::string& message) {
    if (shared.json)
      fmt::print("{}\n", driver::cli::json_usage_error(message, course::kExitInternal).dump(2));
    else
      fmt::print(stderr, "grader: {}\n", message);
    return course::kExitInternal;
  };
  // A checkout copied or moved together with its build folder: this grader still works on the
  // course it was configured for. Say so, and how to build one for the folder in use.
  std::error_code ec;
  const std::string exe = driver::this_grader("");
  const driver::CheckoutProblem where = driver::checkout_problem(
      exe, course::config::kBinaryDir, course::config::kSourceDir,
      fs::exists(course::config::kManifest, ec), driver::in_a_checkout(exe));
  if (where.fatal) return cannot_run(where.message);
  // Once per command line: `grader dev ...` runs grader-instructor of the same folder, which
  // would say it again.
  if (!where.message.empty() && !std::getenv("GRADER_CHECKOUT_NOTED")) {
    fmt::print(stderr, "grader: {}\n", where.message);
    setenv("GRADER_CHECKOUT_NOTED", "1", 1);
  }
  if (!manifest_error.empty()) return cannot_run(manifest_error);
  // Progress lives beside the sources (it survives `rm -rf build`); GRADER_STATE_DIR moves it.
  const char* state_dir = std::getenv("GRADER_STATE_DIR");
  const fs::path state = state_dir && *state_dir ? fs::path(state_dir)
                                                 : fs::path(course::config::kSourceDir) / ".grader";
  driver::Progress progress((state / "progress.json").string());
  if (!progress.warning().empty()) fmt::print(stderr, "grader: {}\n", progress.warning());
  if (shared.seed == 0) shared.seed = std::random_device{}() % 999999999ull + 1;
  driver::cli::Context context{manifest, progress,       shared,
                               self,     state.string(), want_color(shared.color)};
  context.argv.assign(argv, argv + argc);

  for (const Made& m : commands)
    if (!m.fallback && m.command->chosen()) return m.command->run(context);
  for (const Made& m : commands)
    if (m.fallback) return m.command->run(context);
  return course::kExitInternal;
}
