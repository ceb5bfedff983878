// `grader banks`: the shared-memory bank model on the command line (no GPU needed). Registered
// from this lesson's folder because it teaches this lesson's model; lesson 06's `grader sim`
// draws global-memory sectors the same way.
#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <climits>

#include "banks.hpp"
#include "course/cli_checks.hpp"
#include "course/extensions.hpp"
#include "course/report.hpp"

namespace bank_conflicts {

namespace {

class BanksTool : public course::ext::Tool {
 public:
  void add_options(CLI::App& command) override {
    command_ = &command;
    // Whole numbers checked as text first: a value out of range gets a message, never a wrap.
    command.add_option("--width", access_.element_bytes, "element size in bytes (default 4)")
        ->check(course::cli::one_of({4, 8}));
    command.add_option("--row", access_.row_elements, "elements of data per tile row (default 32)")
        ->check(course::cli::whole_number(1, banks::kMaxElements));
    command.add_option("--pad", access_.pad, "unused elements after each row (default 0)")
        ->check(course::cli::whole_number(0, banks::kMaxElements));
    command
        .add_option(
            "--pattern", pattern_,
            "row (lane i reads tile[index][i]), column (tile[i][index]) or swizzled "
            "(element (i, index) stored at tile[i][index ^ i]) or broadcast (every lane reads "
            "tile[0][index]); default column")
        ->check(CLI::IsMember({"row", "column", "swizzled", "broadcast"}));
    command.add_option("--index", access_.index, "the row or column the warp reads (default 0)")
        ->check(course::cli::whole_number(0, INT_MAX));
    command.add_option("--lanes", access_.lanes, "active lanes of the warp")
        ->check(course::cli::whole_number(1, banks::kWarpSize, " (a warp has 32 threads)"));
    command.add_flag("--sweep", sweep_, "table over paddings 0, 1, 2, 3, 4, 8");
    command.add_flag("--plain", plain_, "no colour");
  }

  int run(const course::ext::ToolContext& context) override {
    banks::parse_pattern(pattern_, access_.pattern);  // IsMember checked the name
    if (sweep_ && command_->count("--pad")) {
      fmt::print(stderr,
                 "grader banks: --sweep draws its own paddings (0, 1, 2, 3, 4, 8): give --pad "
                 "without --sweep to draw one, or --sweep without --pad\n");
      return course::kExitUsage;
    }
    if (std::string problem = banks::validate(access_); !problem.empty()) {
      fmt::print(stderr, "grader banks: {}\n", problem);
      return course::kExitUsage;
    }
    if (sweep_) {
      try {
        fmt::print("{}", banks::sweep(access_, {0, 1, 2, 3, 4, 8}));
      } catch (const std::invalid_argument& e) {
        fmt::print(stderr, "grader banks: {}\n", e.what());
        return course::kExitUsage;
      }
    } else {
      fmt::print("{}", banks::draw(access_, banks::simulate(access_), !plain_ && context.color));
    }
    return course::kExitOk;
  }

 private:
  CLI::App* command_ = nullptr;
  banks::Access access_;
  std::string pattern_ = "column";
  bool sweep_ = false, plain_ = false;
};

const course::ext::ToolRegistrar registrar{
    {"banks", "08_bank_conflicts",
     "shared-memory bank model: one warp's access of a tile, lanes per bank, wavefronts",
     "--width 8 --pad 1", [] { return std::make_unique<BanksTool>(); }}};

}  // namespace

}  // namespace bank_conflicts
