// `grader dev`: the instructors' tools. Each is a command of its own file registered with parent
// "dev" (cmd_dev_check.cpp, cmd_dev_readme.cpp, ...); this file only makes the group.
#include "command.hpp"

namespace driver::cli {

namespace {

class Dev : public Command {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    CLI::App* dev = parent.add_subcommand("dev", "instructor tools");
    dev->require_subcommand(1);
    add_color_option(*dev, shared);
  }
  bool chosen() const override { return false; }  // its subcommands run, never the group
  int run(Context&) override { return 0; }
};

const CommandRegistrar dev_registrar{{"", 70, false, [] { return std::make_unique<Dev>(); }}};

}  // namespace

}  // namespace driver::cli
