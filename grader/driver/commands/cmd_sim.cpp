// `grader sim`: the coalescing simulator (no GPU needed).
#include <fmt/format.h>

#include "command.hpp"
#include "course/report.hpp"
#include "course/sim.hpp"

namespace driver::cli {

namespace {

class Sim : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions&) override {
    app_ = parent.add_subcommand("sim", "coalescing simulator: one warp's load, in sectors");
    app_->add_option("--stride", access_.stride,
                     "elements between neighbouring lanes (0 = broadcast)")
        ->check(CLI::NonNegativeNumber);
    app_->add_option("--offset", access_.offset, "elements from a 128-byte aligned base")
        ->check(CLI::NonNegativeNumber);
    app_->add_option("--width", access_.element_bytes, "element size in bytes: 1, 2, 4, 8 or 16");
    app_->add_option("--lanes", access_.lanes, "active lanes of the warp (1..32)");
    app_->add_flag("--sweep", sweep_, "table over strides 1, 2, 4, 8, 16, 32");
    app_->add_flag("--plain", plain_, "no colour");
  }
  int run(Context& context) override {
    if (std::string problem = course::sim::validate(access_); !problem.empty()) {
      fmt::print(stderr, "grader sim: {}\n", problem);
      return course::kExitUsage;
    }
    if (sweep_ && app_->count("--stride"))
      fmt::print(stderr, "grader sim: --sweep shows strides 1 to 32; --stride is ignored\n");
    if (sweep_)
      fmt::print("{}", course::sim::sweep(access_, {1, 2, 4, 8, 16, 32}));
    else
      fmt::print("{}", course::sim::draw(access_, course::sim::simulate(access_),
                                         !plain_ && context.color));
    return course::kExitOk;
  }

 private:
  course::sim::Access access_;
  bool sweep_ = false, plain_ = false;
};

const CommandRegistrar registrar{{"", 20, false, [] { return std::make_unique<Sim>(); }}};

}  // namespace

}  // namespace driver::cli
