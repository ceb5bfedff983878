#include "command.hpp"

#include <climits>
#include <random>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "course/cli_checks.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "selection.hpp"

namespace driver::cli {

namespace checks = course::cli;

// Timeouts above a day are typos, and they would overflow the millisecond clocks downstream.
constexpr double kMaxTimeoutSeconds = 86400;

void add_color_option(CLI::App& app, SharedOptions& shared) {
  app.add_option("--color", shared.color, "colour: auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

void add_device_options(CLI::App& app, SharedOptions& shared) {
  app.add_option("--device", shared.device, "CUDA device index")
      ->check(checks::whole_number(0, INT_MAX));
  app.add_flag("--no-build", shared.no_build, "do not rebuild the lesson first");
  app.add_flag("-q,--quiet", shared.quiet, "no progress messages on stderr");
  add_color_option(app, shared);
}

void add_run_options(CLI::App& app, SharedOptions& shared) {
  add_device_options(app, shared);
  app.add_option("--seed", shared.seed,
                 "seed of the random test inputs (default: a new one each run)")
      ->check(checks::unsigned_number("; 0 picks a new seed"));
  app.add_option("--timeout", shared.test_timeout,
                 "seconds one hidden test may run before it is killed")
      ->check(checks::seconds(0, kMaxTimeoutSeconds));
  app.add_option("--kernel-timeout", shared.kernel_timeout,
                 "seconds one kernel may run before it counts as hung")
      ->check(checks::seconds(0, kMaxTimeoutSeconds));
  app.add_flag("-v,--verbose", shared.verbose, "show every failing test, not just the first ones");
}

bool Context::save_progress() const {
  if (progress.save()) return true;
  fmt::print(stderr, "grader: {}\n", progress.save_failure());
  return false;
}

GradeOptions Context::grade_options() const {
  GradeOptions g;
  g.binary_dir = course::config::kBinaryDir;
  g.lesson_bin_dir = course::config::kLessonBinDir;
  g.variant = shared.variant;
  g.build = !shared.no_build;
  g.seed = shared.seed;
  g.device = shared.device;
  g.test_timeout = shared.test_timeout;
  g.kernel_timeout = shared.kernel_timeout;
  g.status_messages = !shared.quiet && !shared.json;
  return g;
}

int Context::usage_error(const std::string& command, const std::string& message) const {
  if (shared.json)
    fmt::print("{}\n", json_usage_error(message).dump(2));
  else
    fmt::print(stderr, "{}: {}\n", command, message);
  return course::kExitUsage;
}

std::optional<course::Selection> Context::resolve(const std::string& command,
                                                  const std::string& spec) const {
  try {
    return course::resolve(manifest, spec);
  } catch (const course::UsageError& e) {
    usage_error(command, e.what());
    return std::nullopt;
  }
}

std::optional<course::Selection> Context::resolve_ready(const std::string& command,
                                                        const std::string& spec) const {
  try {
    return select_ready(manifest, spec, self);
  } catch (const course::UsageError& e) {
    usage_error(command, e.what());
    return std::nullopt;
  }
}

nlohmann::json json_usage_error(const std::string& message, int exit_code) {
  return {{"format", "cuda-course-grader-error"},
          {"format_version", 1},
          {"grader_version", course::config::kVersion},
          {"exit_code", exit_code},
          {"error", message}};
}

std::vector<CommandSpec>& registered_commands() {
  static std::vector<CommandSpec> specs;
  return specs;
}

}  // namespace driver::cli
