// `grader hint LESSON[.STEP]`: the next hint tier of a step (a nudge, the idea, what to change).
#include <algorithm>

#include <fmt/format.h>

#include "command.hpp"
#include "course/layout.hpp"
#include "course/report.hpp"

namespace driver::cli {

namespace {

class Hint : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("hint", "show the next hint tier for a lesson step");
    app_->add_option("target", target_, "LESSON or LESSON.STEP")->required();
    app_->add_flag("--all", all_, "show every tier at once");
    add_color_option(*app_, shared);
  }
  int run(Context& context) override;

 private:
  std::string target_;
  bool all_ = false;
};

// The step asked for, or the lesson's first step not passed yet (its last when all are).
const course::Step* step_to_hint(const course::Selection& sel, const Progress& progress) {
  if (sel.step) return sel.step;
  for (const course::Step& s : sel.lesson->steps)
    if (!progress.step_passed(sel.lesson->id, s.name)) return &s;
  return sel.lesson->steps.empty() ? nullptr : &sel.lesson->steps.back();
}

int Hint::run(Context& context) {
  const std::optional<course::Selection> sel = context.resolve_ready("grader hint", target_);
  if (!sel) return course::kExitUsage;
  const course::Lesson& lesson = *sel->lesson;
  const course::Step* step = step_to_hint(*sel, context.progress);
  if (!step || step->hints.empty()) {
    fmt::print("{} has no hints yet.\n", lesson.id);
    return course::kExitOk;
  }
  const int tiers = static_cast<int>(step->hints.size());
  const int seen = context.progress.hints_seen(lesson.id, step->name);
  const int shown = all_ ? tiers : std::min(tiers, seen + 1);
  fmt::print("Hints for {}.{} — {}\n", lesson.id, step->name, step->title);
  static const char* kTier[] = {"nudge", "idea", "what to change"};
  for (int i = 0; i < shown; ++i)
    fmt::print("\n  {}/{} ({}): {}\n", i + 1, tiers, i < 3 ? kTier[i] : "more", step->hints[i]);
  context.progress.set_hints_seen(lesson.id, step->name, std::max(shown, seen));
  // Saved first: an unsaved tier comes back on the next run, so it cannot promise the next one.
  const bool saved = context.save_progress();
  if (shown < tiers && saved)
    fmt::print("\nRun the same command again for the next tier ({} more), or add --all.\n",
               tiers - shown);
  else if (shown < tiers)
    fmt::print(
        "\nThe tiers seen could not be saved (see above), so the same command shows this "
        "tier again: add --all for all {}.\n",
        tiers);
  else
    fmt::print(
        "\nThat is the last tier: all {} hints of this step are shown. The lesson's text "
        "explains the step in full: {}\n",
        tiers, course::layout::readme("", lesson.id).generic_string());
  return course::kExitOk;
}

const CommandRegistrar hint_registrar{{"", 10, false, [] { return std::make_unique<Hint>(); }}};

}  // namespace

}  // namespace driver::cli
