// `grader sim`: the coalescing simulator on the command line (no GPU needed).
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <climits>

#include "course/cli_checks.hpp"
#include "course/extensions.hpp"
#include "course/report.hpp"
#include "sim.hpp"

namespace coalescing {

namespace {

class SimTool : public course::ext::Tool {
 public:
  void add_options(CLI::App& command) override {
    command_ = &command;
    // Whole numbers checked as text first: a value out of range gets a message, never a wrap.
    command
        .add_option("--stride", access_.stride,
                    "elements between neighbouring lanes (0 = broadcast)")
        ->check(course::cli::whole_number(0, LLONG_MAX));
    command.add_option("--offset", access_.offset, "elements from a 128-byte aligned base")
        ->check(course::cli::whole_number(0, LLONG_MAX));
    command.add_option("--width", access_.element_bytes, "element size in bytes")
        ->check(course::cli::one_of({1, 2, 4, 8, 16}));
    command.add_option("--lanes", access_.lanes, "active lanes of the warp")
        ->check(course::cli::whole_number(1, sim::kWarpSize, " (a warp has 32 threads)"));
    command.add_flag("--sweep", sweep_, "table over strides 1, 2, 4, 8, 16, 32");
    command.add_flag("--plain", plain_, "no colour");
  }

  int run(const course::ext::ToolContext& context) override {
    if (std::string problem = sim::validate(access_); !problem.empty()) {
      fmt::print(stderr, "grader sim: {}\n", problem);
      return course::kExitUsage;
    }
    if (sweep_ && command_->count("--stride")) {
      fmt::print(stderr,
                 "grader sim: --sweep draws its own strides (1, 2, 4, 8, 16, 32): give --stride "
                 "without --sweep to draw one stride, or --sweep without --stride\n");
      return course::kExitUsage;
    }
    if (sweep_)
      fmt::print("{}", sim::sweep(access_, {1, 2, 4, 8, 16, 32}));
    else
      fmt::print("{}", sim::draw(access_, sim::simulate(access_), !plain_ && context.color));
    return course::kExitOk;
  }

 private:
  CLI::App* command_ = nullptr;
  sim::Access access_;
  bool sweep_ = false, plain_ = false;
};

const course::ext::ToolRegistrar registrar{
    {"sim", "06_coalescing", "coalescing simulator: one warp's load, in sectors", "--stride 8",
     [] { return std::make_unique<SimTool>(); }}};

}  // namespace

}  // namespace coalescing
