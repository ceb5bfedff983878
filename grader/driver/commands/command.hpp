// The grader's commands: each lives in a file of its own (cmd_*.cpp) that registers itself with a
// static CommandRegistrar, adds its CLI11 subcommand and options, and returns an exit code from
// run(). main.cpp only parses and dispatches. Adding a command (e.g. `grader dev new`) is one
// more file here.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "grade.hpp"
#include "progress.hpp"

namespace driver::cli {

/// Options that more than one command honours. Each command binds the ones it uses to its own
/// subcommand (so `grader profile LESSON --color never` works as well as `grader --color
/// never profile LESSON`); the grading options also sit on the top level, where grading reads them.
struct SharedOptions {
  std::string color = "auto";   ///< auto, always or never
  bool quiet = false;           ///< no progress messages on stderr
  bool verbose = false;         ///< every failing test
  bool no_build = false;        ///< do not rebuild targets first
  bool json = false;            ///< machine-readable report on stdout
  unsigned long long seed = 0;  ///< 0 = a new one each run
  int device = 0;               ///< CUDA device index
  double test_timeout = 120;    ///< seconds per hidden test
  double kernel_timeout = 10;   ///< seconds per kernel
  std::string variant;          ///< instructors: a build variant
};

/// Adds --color to `app` (every command takes it).
void add_color_option(CLI::App& app, SharedOptions& shared);
/// Adds what a command that builds and runs on the GPU honours: --device, --no-build, -q/--quiet
/// and --color.
void add_device_options(CLI::App& app, SharedOptions& shared);
/// Adds what a grading run honours: add_device_options() and --seed, --timeout,
/// --kernel-timeout, -v/--verbose.
void add_run_options(CLI::App& app, SharedOptions& shared);

/// The JSON object printed instead of a report when the command line is wrong under --json:
/// {"format": "cuda-course-grader-error", "format_version": 1, "grader_version", "exit_code",
/// "error": MESSAGE}; `exit_code` is 2 (a usage error) unless the error is another kind (5: the
/// instructors' executable is missing, cmd_instructor.cpp; the manifest unreadable or the
/// course this grader was built for gone, main.cpp).
nlohmann::json json_usage_error(const std::string& message, int exit_code = course::kExitUsage);

/// What a command may use once the command line is parsed.
struct Context {
  const course::Manifest& manifest;  ///< lessons/course.json
  Progress& progress;                ///< <state>/progress.json
  const SharedOptions& shared;       ///< the shared options as parsed
  std::string self;                  ///< how the grader was invoked (argv[0]), for messages
  std::string state_dir;             ///< where progress and backups live
  bool color = false;                ///< --color resolved against the terminal
  std::vector<std::string> argv;     ///< the command line as typed, for a command that passes it on

  /// Saves the progress file; says so on stderr when it cannot, with why and the fix (also under
  /// --quiet: an unsaved hint tier or passed step would silently come back next time).
  /// @return whether it was saved
  bool save_progress() const;
  /// The grading options the shared options describe (build tree, seed, device, timeouts).
  GradeOptions grade_options() const;
  /// Prints a usage error of `command` ("grader", "grader hint", ...) and returns exit code 2:
  /// as one line on stderr, or as a JSON error object on stdout when --json was asked for.
  int usage_error(const std::string& command, const std::string& message) const;
  /// The lesson (and step) `spec` names, as course::resolve() reads it; no value, after printing
  /// the usage error of `command`, when it names none.
  std::optional<course::Selection> resolve(const std::string& command,
                                           const std::string& spec) const;
  /// The same for a command that needs the lesson written (hint, watch, reset): a planned lesson
  /// is a usage error too, as it is for grading (select_ready()).
  std::optional<course::Selection> resolve_ready(const std::string& command,
                                                 const std::string& spec) const;
};

/// One command of the grader.
class Command {
 public:
  virtual ~Command() = default;
  /// Adds the command's subcommand and options to `parent` (the top-level app, or `grader dev`).
  virtual void add_to(CLI::App& parent, SharedOptions& shared) = 0;
  /// True when the command line chose this command.
  virtual bool chosen() const = 0;
  /// Runs it; returns the process exit code (course::ExitCode).
  virtual int run(Context& context) = 0;
};

/// How a command is registered.
struct CommandSpec {
  std::string parent;  ///< "" = top level; "dev" = under `grader dev`
  int order = 0;       ///< position among its siblings in --help
  /// True for the one command that runs when no subcommand is given (grading and the map).
  bool fallback = false;
  std::function<std::unique_ptr<Command>()> make;  ///< creates the command
};

/// Every registered command, in registration order.
std::vector<CommandSpec>& registered_commands();

/// Registers a command from a static object in the command's file.
struct CommandRegistrar {
  explicit CommandRegistrar(CommandSpec spec) { registered_commands().push_back(std::move(spec)); }
};

/// A command that is a CLI11 subcommand with options and nothing else to decide whether it was
/// chosen: most of them.
class Subcommand : public Command {
 public:
  bool chosen() const override { return app_ && app_->parsed(); }

 protected:
  CLI::App* app_ = nullptr;  ///< set by add_to() in the derived class
};

/// `grader` without arguments: the course map with the student's progress (cmd_map.cpp).
int show_course_map(const Context& context);

}  // namespace driver::cli
