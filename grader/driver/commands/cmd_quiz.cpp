// `grader quiz LESSON`: the lesson's self-check quiz (quiz_command.hpp does the asking).
#include "command.hpp"
#include "course/cli_checks.hpp"
#include "quiz_command.hpp"

namespace driver::cli {

namespace {

class Quiz : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("quiz", "the lesson's self-check quiz (asks in the terminal)");
    app_->add_option("lesson", target_, "LESSON")->required();
    app_->add_option("--answers-file", options_.answers_file,
                     "answers, one per line, in question order (no prompts; the choices are "
                     "shuffled per attempt, so give a --seed seen before to answer by letter)");
    app_->add_option("--answer", options_.answers,
                     "an answer (repeat, in question order; no prompts; letters need a --seed seen "
                     "before)");
    app_->add_option("--seed", options_.seed,
                     "seed of the choices' order and the generated questions (default: new each "
                     "attempt)")
        ->check(course::cli::unsigned_number("; 0 picks a new seed"));
    add_color_option(*app_, shared);
  }
  int run(Context& context) override {
    options_.color = context.color;
    return run_quiz_command(context.manifest, target_, options_, context.progress);
  }

 private:
  std::string target_;
  QuizCommandOptions options_;
};

const CommandRegistrar quiz_registrar{{"", 30, false, [] { return std::make_unique<Quiz>(); }}};

}  // namespace

}  // namespace driver::cli
