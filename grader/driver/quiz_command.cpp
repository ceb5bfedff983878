#include "quiz_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>

#include "course/config.hpp"
#include "course/layout.hpp"
#include "course/quiz.hpp"
#include "course/report.hpp"

namespace driver {

namespace {

namespace fs = std::filesystem;
namespace quiz = course::quiz;

constexpr int kWidth = 80;

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// Word-wraps `text` to kWidth columns with `indent` spaces before its first line and `hang`
// spaces before the lines that continue a wrapped one (-1: the same as `indent`). Lines of
// `text` that start with a space are preformatted (code, diagrams) and kept as they are.
std::string wrap(const std::string& text, int indent, int hang = -1) {
  if (hang < 0) hang = indent;
  std::string out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == ' ') {
      out += (line.empty() ? "" : std::string(indent, ' ') + line) + "\n";
      continue;
    }
    std::istringstream words(line);
    std::string current;
    std::size_t pad = indent;
    for (std::string word; words >> word;) {
      if (!current.empty() && pad + current.size() + 1 + word.size() > kWidth) {
        out += std::string(pad, ' ') + current + "\n";
        current.clear();
        pad = hang;
      }
      current += (current.empty() ? "" : " ") + word;
    }
    out += std::string(pad, ' ') + current + "\n";
  }
  return out;
}

struct Painter {
  bool color;
  std::string operator()(const std::string& s, const char* code) const {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  }
};

// Reads a non-interactive answers file: one answer per line, '#' comments and blank lines
// skipped. Returns false (with `why`) when it cannot be read.
bool read_answers(const std::string& path, std::vector<std::string>& answers, std::string& why) {
  std::ifstream in(path);
  if (!in) {
    why = fmt::format("cannot read the answers file {}", path);
    return false;
  }
  for (std::string line; std::getline(in, line);) {
    const std::string a = trim(line);
    if (a.empty() || a[0] == '#') continue;
    answers.push_back(a);
  }
  return true;
}

}  // namespace

std::string quiz_path(const course::Lesson& lesson) {
  return course::layout::quiz(course::config::kSourceDir, lesson.id).string();
}

int run_quiz_command(const course::Manifest& manifest, const std::string& lesson_spec,
                     const QuizCommandOptions& options, driver::Progress& progress) {
  std::ostream& err = options.out == &std::cout ? std::cerr : *options.out;
  course::Selection sel;
  try {
    sel = course::resolve(manifest, lesson_spec);
  } catch (const course::UsageError& e) {
    err << "grader quiz: " << e.what() << "\n";
    return course::kExitUsage;
  }
  if (sel.step) {
    err << fmt::format("grader quiz: quizzes are per lesson, not per step: try `grader quiz {}`\n",
                       sel.lesson->id);
    return course::kExitUsage;
  }
  const std::string path = quiz_path(*sel.lesson);
  if (!fs::exists(path)) {
    std::string with;
    for (const course::Lesson& l : manifest.lessons)
      if (fs::exists(quiz_path(l))) with += (with.empty() ? "" : ", ") + l.id;
    err << fmt::format(
        "grader quiz: {} has no quiz yet (no lessons/{}/quiz.json). Lessons with "
        "a quiz: {}\n",
        sel.lesson->id, sel.lesson->id, with.empty() ? "none yet" : with);
    return course::kExitUsage;
  }
  return run_quiz_file(manifest, *sel.lesson, path, options, progress);
}

namespace {

// One attempt at a quiz: where the answers come from, asking, checking, recording.
class Attempt {
 public:
  Attempt(const course::Lesson& lesson, const QuizCommandOptions& options, Progress& progress)
      : lesson_(lesson),
        options_(options),
        progress_(progress),
        out_(*options.out),
        err_(options.out == &std::cout ? std::cerr : *options.out),
        paint_{options.color} {}

  int run(const course::Manifest& manifest, const std::string& quiz_path) {
    if (const int rc = load(manifest, quiz_path); rc != course::kExitOk) return rc;
    if (const int rc = collect_answers(); rc != course::kExitOk) return rc;
    seed_ = options_.seed ? options_.seed : std::random_device{}() % 999999999ull + 1;
    when_ = now_iso();
    // Answers shown by an earlier attempt (a preview that skipped them all, or one stopped half
    // way) make this one a retry, whatever seed it uses: the choices' texts do not change.
    retry_ = progress_.answers_shown(lesson_.id);
    introduce();
    for (std::size_t k = 0; k < quiz_.questions.size(); ++k)
      if (!ask(k)) {  // end of input: no score recorded, but the answers shown count
        keep_answers_shown();
        return course::kExitOk;
      }
    summarize();
    return course::kExitOk;
  }

 private:
  struct Noted {
    std::string step;
    double percent;
  };

  int load(const course::Manifest& manifest, const std::string& quiz_path);
  int collect_answers();
  void introduce();
  bool ask(std::size_t k);
  std::optional<quiz::Verdict> read_interactively(const quiz::Instance& inst, std::size_t k,
                                                  double measured);
  std::string label(const quiz::Verdict& v) const;
  void summarize();
  void keep_answers_shown();

  const course::Lesson& lesson_;
  const QuizCommandOptions& options_;
  Progress& progress_;
  std::ostream& out_;
  std::ostream& err_;
  const Painter paint_;
  quiz::Quiz quiz_;
  bool interactive_ = true;
  std::vector<std::string> answers_;
  unsigned long long seed_ = 0;
  std::string when_;
  int right_ = 0;
  int answered_ = 0;  // scored questions not skipped: an attempt that skipped them all is a preview
  bool retry_ = false;  // an earlier attempt showed the answers
  bool shown_ = false;  // this attempt showed an answer (an explanation)
  std::vector<Noted> noted_;
};

int Attempt::load(const course::Manifest& manifest, const std::string& quiz_path) {
  try {
    quiz_ = quiz::Quiz::load(quiz_path);
  } catch (const quiz::QuizError& e) {
    err_ << "grader quiz: the quiz file is malformed: " << e.what() << "\n";
    return course::kExitInternal;
  }
  std::vector<std::string> problems = quiz::problems(quiz_, manifest);
  if (quiz_.lesson != lesson_.id)
    problems.push_back(fmt::format("it says it is the quiz of \"{}\", but it belongs to {}",
                                   quiz_.lesson, lesson_.id));
  if (problems.empty()) return course::kExitOk;
  err_ << fmt::format("grader quiz: {} does not match the course manifest:\n", quiz_path);
  for (const std::string& p : problems) err_ << "  " << p << "\n";
  return course::kExitInternal;
}

// Where the answers come from: the terminal, --answer flags or an answers file.
int Attempt::collect_answers() {
  const bool from_file = !options_.answers_file.empty();
  interactive_ = !from_file && options_.answers.empty();
  answers_ = options_.answers;
  if (from_file && !options_.answers.empty()) {
    err_ << "grader quiz: give the answers either with --answers-file or with --answer, not both\n";
    return course::kExitUsage;
  }
  std::string why;
  if (from_file && !read_answers(options_.answers_file, answers_, why)) {
    err_ << "grader quiz: " << why << "\n";
    return course::kExitUsage;
  }
  const std::size_t n = quiz_.questions.size();
  if (!interactive_ && answers_.size() == n && options_.seed == 0) {
    // Without a seed this attempt's choice order and drawn numbers are new: an answer given in
    // advance to such a question was not given to it, and would be scored as a first attempt.
    for (std::size_t k = 0; k < n; ++k) {
      const quiz::Kind kind = quiz_.questions[k].kind;
      // A choice's own text does not depend on the order; its letter does.
      const bool shuffled =
          kind == quiz::Kind::choice &&
          quiz::choice_by_letter(answers_[k],
                                 static_cast<int>(quiz_.questions[k].choices.size())) >= 0;
      if (answers_[k] == "-" || !(shuffled || kind == quiz::Kind::generated)) continue;
      err_ << fmt::format(
          "grader quiz: answer {} ({}) {}; without --seed this attempt's were never shown to you. "
          "Give the --seed of the attempt you read (it prints \"Seed N\"){}, or run `grader quiz "
          "{}` in a terminal\n",
          k + 1, answers_[k],
          shuffled ? "picks a choice by its letter, and the choices are shuffled per attempt"
                   : "answers a question whose numbers are drawn per attempt",
          shuffled ? ", give the choice's text instead of its letter" : "", lesson_.id);
      return course::kExitUsage;
    }
  }
  if (interactive_ || answers_.size() == n) return course::kExitOk;
  err_ << fmt::format(
      "grader quiz: {} gives {} answer{}, but the quiz of {} has {} questions: one answer per "
      "question, in order ('-' skips one)\n",
      from_file ? "the answers file " + options_.answers_file : std::string("--answer"),
      answers_.size(), answers_.size() == 1 ? "" : "s", lesson_.id, n);
  return course::kExitUsage;
}

void Attempt::introduce() {
  const std::size_t n = quiz_.questions.size();
  const int scored = quiz_.scored_count();
  const int predictions = static_cast<int>(n) - scored;
  out_ << paint_(fmt::format("Self-check · {} · {}", lesson_.id, lesson_.title), "1") << "\n";
  if (!quiz_.title.empty()) out_ << wrap(quiz_.title, 0);
  std::string intro = fmt::format("{} questions", n);
  if (predictions > 0)
    intro += fmt::format(" ({} scored, {} prediction{} not scored)", scored, predictions,
                         predictions == 1 ? "" : "s");
  intro += fmt::format(". Seed {}: repeat this attempt with --seed {}.", seed_, seed_);
  if (interactive_) intro += " Answer with a letter or a number and press Enter; - skips one.";
  if (retry_)
    intro +=
        " An earlier attempt showed the answers: this one is recorded as a retry, and the course "
        "map keeps your first score.";
  out_ << wrap(intro, 0);
}

// Asks question k, checks and explains the answer, notes a prediction. False at end of input.
bool Attempt::ask(std::size_t k) {
  const quiz::Instance inst = quiz::instantiate(quiz_.questions[k], seed_);
  const quiz::Question& question = inst.question;
  out_ << "\n" << paint_(fmt::format("Question {}/{}", k + 1, quiz_.questions.size()), "1") << "\n";
  out_ << wrap(inst.prompt, 2);
  for (std::size_t c = 0; c < inst.choices.size(); ++c)
    out_ << wrap(fmt::format("{}) {}", static_cast<char>('a' + c), inst.choices[c]), 4, 7);
  out_ << "  " << paint_(inst.answer_form, "2") << "\n";

  const bool prediction = question.kind == quiz::Kind::prediction;
  const double measured =
      prediction ? progress_.fraction(question.measured_lesson, question.measured_step) : -1;
  std::optional<quiz::Verdict> v;
  if (interactive_) {
    v = read_interactively(inst, k, measured);
    if (!v) return false;
  } else {
    out_ << "> " << answers_[k] << "\n";
    v = quiz::check(inst, answers_[k], measured);
  }
  out_ << "  " << label(*v) << "\n" << wrap(v->explanation, 4);
  shown_ |= question.kind != quiz::Kind::prediction;
  if (inst.illustrate && !v->correct) out_ << "\n" << inst.illustrate(options_.color);
  right_ += v->correct;
  answered_ += v->scored && !v->skipped;
  if (prediction && v->value) {
    progress_.set_prediction(lesson_.id, question.id, question.measured_lesson,
                             question.measured_step, *v->value, when_);
    noted_.push_back({question.measured_lesson + "." + question.measured_step, *v->value});
  }
  return true;
}

// Reads lines until one is an answer; no value at end of input.
std::optional<quiz::Verdict> Attempt::read_interactively(const quiz::Instance& inst, std::size_t k,
                                                         double measured) {
  for (;;) {
    out_ << "> " << std::flush;
    std::string line;
    if (!options_.in || !std::getline(*options_.in, line)) {
      out_ << fmt::format(
          "\nQuiz stopped at question {} of {} (end of input): no score recorded{}.\n", k + 1,
          quiz_.questions.size(),
          shown_ ? "; the answers shown so far make your next attempt a retry" : "");
      return std::nullopt;
    }
    if (trim(line).empty()) {
      out_ << "  type an answer, or - to skip\n";
      continue;
    }
    quiz::Verdict v = quiz::check(inst, line, measured);
    if (v.understood) return v;
    out_ << "  " << v.problem << "\n";
  }
}

std::string Attempt::label(const quiz::Verdict& v) const {
  if (!v.scored) return v.value ? paint_("• noted", "36") : paint_("– no estimate", "33");
  if (v.correct) return paint_("✓ right", "32");
  if (v.skipped) return paint_("– skipped", "33");
  return paint_("✗ wrong", "31");
}

// The score, recorded with the best attempt so far (a retry says so), and the predictions kept.
void Attempt::summarize() {
  const int scored = quiz_.scored_count();
  if (answered_ > 0) progress_.set_quiz_score(lesson_.id, right_, scored, when_, !retry_);
  if (shown_) progress_.note_answers_shown(lesson_.id);
  const auto record = progress_.quiz_score(lesson_.id);
  const int pct = scored > 0 ? (100 * right_ + scored / 2) / scored : 100;
  out_ << "\n"
       << paint_(fmt::format("Score: {}/{} ({}%)", right_, scored, pct),
                 right_ == scored ? "1;32" : "1")
       << ".";
  std::string after;
  if (answered_ == 0 && scored > 0)
    after =
        " Every question was skipped: no score recorded. The answers are shown above, so your "
        "next attempt is recorded as a retry.";
  else if (retry_ && record && record->has_first)
    after = fmt::format(
        " A retry: an earlier attempt showed the answers, so the course map keeps your first "
        "score, {}/{}{}.",
        record->first_score, record->first_total,
        record->attempts > 1 ? fmt::format(" (best of {} attempts: {}/{})", record->attempts,
                                           record->best_score, record->best_total)
                             : "");
  else if (retry_)
    after =
        " A retry: an earlier attempt showed the answers before any score was recorded, so the "
        "course map marks this score as a retry.";
  else if (record && record->attempts > 1)
    after = fmt::format(" Best so far: {}/{}, over {} attempts.", record->best_score,
                        record->best_total, record->attempts);
  out_ << after << "\n";
  if (!noted_.empty()) {
    std::string list;
    for (const Noted& p : noted_)
      list += fmt::format("{}{} {}%", list.empty() ? "" : ", ", p.step,
                          course::quiz::format_number(p.percent));
    out_ << wrap(fmt::format("Your predictions ({}) are kept; the quiz compares them with your "
                             "measured fractions once you have graded those steps.",
                             list),
                 0);
  }
  if ((answered_ > 0 || shown_ || !noted_.empty()) && !progress_.save())
    err_ << "grader quiz: " << progress_.save_failure() << "\n";
}

// An attempt stopped before its end: what it showed still makes the next attempt a retry.
void Attempt::keep_answers_shown() {
  if (!shown_) return;
  progress_.note_answers_shown(lesson_.id);
  if (!progress_.save()) err_ << "grader quiz: " << progress_.save_failure() << "\n";
}

}  // namespace

int run_quiz_file(const course::Manifest& manifest, const course::Lesson& lesson,
                  const std::string& quiz_path, const QuizCommandOptions& options,
                  driver::Progress& progress) {
  return Attempt(lesson, options, progress).run(manifest, quiz_path);
}

}  // namespace driver
