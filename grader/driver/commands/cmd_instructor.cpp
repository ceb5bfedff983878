// `grader dev ...` and `grader class ...` in the student's grader: the instructors' commands live
// in a sibling executable, grader-instructor (the student's commands and these), as git and cargo
// run `git-foo` and `cargo-foo` for their subcommands. A student's first build compiles only what
// a student runs; this file, linked into `grader` alone, runs the sibling with the same command
// line, or says how to build it.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "command.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "process.hpp"

namespace driver::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kInstructorGrader = "grader-instructor";

// grader-instructor beside this executable (the build tree puts both in one folder).
fs::path sibling() {
  const fs::path self = this_grader((fs::path(course::config::kBinaryDir) / "grader").string());
  return self.parent_path() / kInstructorGrader;
}

class Instructor : public Command {
 public:
  Instructor(std::string name, std::string help) : name_(std::move(name)), help_(std::move(help)) {}
  void add_to(CLI::App& parent, SharedOptions&) override {
    app_ = parent.add_subcommand(name_, help_ + " (runs " + kInstructorGrader + ")");
    // Everything after the command, --help included, is the instructor grader's to read.
    app_->prefix_command();
    app_->set_help_flag();
  }
  bool chosen() const override { return app_ && app_->parsed(); }
  int run(Context& context) override {
    const fs::path path = sibling();
    std::vector<char*> argv;
    for (std::string& a : context.argv) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    execv(path.c_str(), argv.data());
    const int error = errno;
    const std::string message = fmt::format(
        "the instructors' commands are in {}, which {}. Build it: cmake --build {} --target {} "
        "(the default target builds it too)",
        path.string(),
        error == ENOENT ? "is not built here" : std::string("cannot run: ") + std::strerror(error),
        course::config::kBinaryDir, kInstructorGrader);
    // Under --json the error is JSON too, wherever --json stands (as in main.cpp's parse()).
    if (std::find(context.argv.begin(), context.argv.end(), "--json") != context.argv.end()) {
      fmt::print("{}\n", json_usage_error(message, course::kExitInternal).dump(2));
    } else {
      fmt::print(stderr, "{} {}: {}\n", context.self, name_, message);
    }
    return course::kExitInternal;
  }

 private:
  std::string name_;
  std::string help_;
  CLI::App* app_ = nullptr;
};

// The same names and places in --help as the commands they stand for (cmd_dev.cpp, cmd_class.cpp).
const CommandRegistrar dev_forward_registrar{
    {"", 70, false, [] { return std::make_unique<Instructor>("dev", "instructor tools"); }}};
const CommandRegistrar class_forward_registrar{
    {"", 90, false, [] {
       return std::make_unique<Instructor>(
           "class",
           "instructors: grade a whole class (a roster of submissions) "
           "into a gradebook");
     }}};

}  // namespace

}  // namespace driver::cli
