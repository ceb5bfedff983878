#include "quiz_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "course/config.hpp"
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
  return (fs::path(course::config::kSourceDir) / "lessons" / lesson.id / "quiz.json").string();
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

int run_quiz_file(const course::Manifest& manifest, const course::Lesson& lesson,
                  const std::string& quiz_path, const QuizCommandOptions& options,
                  driver::Progress& progress) {
  std::ostream& out = *options.out;
  std::ostream& err = options.out == &std::cout ? std::cerr : *options.out;
  const Painter paint{options.color};

  quiz::Quiz q;
  try {
    q = quiz::Quiz::load(quiz_path);
  } catch (const quiz::QuizError& e) {
    err << "grader quiz: the quiz file is malformed: " << e.what() << "\n";
    return course::kExitInternal;
  }
  std::vector<std::string> problems = quiz::problems(q, manifest);
  if (q.lesson != lesson.id)
    problems.push_back(
        fmt::format("it says it is the quiz of \"{}\", but it belongs to {}", q.lesson, lesson.id));
  if (!problems.empty()) {
    err << fmt::format("grader quiz: {} does not match the course manifest:\n", quiz_path);
    for (const std::string& p : problems) err << "  " << p << "\n";
    return course::kExitInternal;
  }

  // Where the answers come from.
  const bool from_file = !options.answers_file.empty();
  const bool interactive = !from_file && options.answers.empty();
  std::vector<std::string> answers = options.answers;
  if (from_file && !options.answers.empty()) {
    err << "grader quiz: give the answers either with --answers-file or with --answer, not both\n";
    return course::kExitUsage;
  }
  if (from_file) {
    std::string why;
    if (!read_answers(options.answers_file, answers, why)) {
      err << "grader quiz: " << why << "\n";
      return course::kExitUsage;
    }
  }
  const std::size_t n = q.questions.size();
  if (!interactive && answers.size() != n) {
    err << fmt::format(
        "grader quiz: {} gives {} answer{}, but the quiz of {} has {} questions: one answer per "
        "question, in order ('-' skips one)\n",
        from_file ? "the answers file " + options.answers_file : std::string("--answer"),
        answers.size(), answers.size() == 1 ? "" : "s", lesson.id, n);
    return course::kExitUsage;
  }

  const unsigned long long seed =
      options.seed ? options.seed : std::random_device{}() % 999999999ull + 1;
  const int scored = q.scored_count();
  const int predictions = static_cast<int>(n) - scored;
  out << paint(fmt::format("Self-check · {} · {}", lesson.id, lesson.title), "1") << "\n";
  if (!q.title.empty()) out << wrap(q.title, 0);
  std::string intro = fmt::format("{} questions", n);
  if (predictions > 0)
    intro += fmt::format(" ({} scored, {} prediction{} not scored)", scored, predictions,
                         predictions == 1 ? "" : "s");
  intro += fmt::format(". Seed {}: repeat this attempt with --seed {}.", seed, seed);
  if (interactive) intro += " Answer with a letter or a number and press Enter; - skips one.";
  out << wrap(intro, 0);

  struct Noted {
    std::string id, step;
    double percent;
  };
  std::vector<Noted> noted;
  int right = 0;
  const std::string when = now_iso();
  for (std::size_t k = 0; k < n; ++k) {
    const quiz::Instance inst = quiz::instantiate(q.questions[k], seed);
    const quiz::Question& question = inst.question;
    out << "\n" << paint(fmt::format("Question {}/{}", k + 1, n), "1") << "\n";
    out << wrap(inst.prompt, 2);
    for (std::size_t c = 0; c < inst.choices.size(); ++c)
      out << wrap(fmt::format("{}) {}", static_cast<char>('a' + c), inst.choices[c]), 4, 7);
    out << "  " << paint(inst.answer_form, "2") << "\n";

    double measured = -1;
    if (question.kind == quiz::Kind::prediction)
      measured = progress.fraction(question.measured_lesson, question.measured_step);
    quiz::Verdict v;
    if (interactive) {
      for (;;) {
        out << "> " << std::flush;
        std::string line;
        if (!options.in || !std::getline(*options.in, line)) {
          out << fmt::format(
              "\nQuiz stopped at question {} of {} (end of input): nothing "
              "recorded.\n",
              k + 1, n);
          return course::kExitOk;
        }
        if (trim(line).empty()) {
          out << "  type an answer, or - to skip\n";
          continue;
        }
        v = quiz::check(inst, line, measured);
        if (v.understood) break;
        out << "  " << v.problem << "\n";
      }
    } else {
      out << "> " << answers[k] << "\n";
      v = quiz::check(inst, answers[k], measured);
    }

    std::string label;
    if (!v.scored)
      label = v.value ? paint("• noted", "36") : paint("– no estimate", "33");
    else if (v.correct)
      label = paint("✓ right", "32");
    else if (v.skipped)
      label = paint("– skipped", "33");
    else
      label = paint("✗ wrong", "31");
    out << "  " << label << "\n" << wrap(v.explanation, 4);
    if (inst.illustrate && !v.correct) out << "\n" << inst.illustrate(options.color);
    right += v.correct;
    if (question.kind == quiz::Kind::prediction && v.value) {
      progress.set_prediction(lesson.id, question.id, question.measured_lesson,
                              question.measured_step, *v.value, when);
      noted.push_back(
          {question.id, question.measured_lesson + "." + question.measured_step, *v.value});
    }
  }

  progress.set_quiz_score(lesson.id, right, scored, when);
  const auto record = progress.quiz_score(lesson.id);
  const int pct = scored > 0 ? (100 * right + scored / 2) / scored : 100;
  out << "\n"
      << paint(fmt::format("Score: {}/{} ({}%)", right, scored, pct),
               right == scored ? "1;32" : "1")
      << ".";
  if (record && record->attempts > 1)
    out << fmt::format(" Best so far: {}/{}, over {} attempts.", record->best_score,
                       record->best_total, record->attempts);
  out << "\n";
  if (!noted.empty()) {
    std::string list;
    for (const Noted& p : noted)
      list += fmt::format("{}{} {}%", list.empty() ? "" : ", ", p.step,
                          course::quiz::format_number(p.percent));
    out << wrap(fmt::format("Your predictions ({}) are kept; the quiz compares them with your "
                            "measured fractions once you have graded those steps.",
                            list),
                0);
  }
  if (!progress.save()) err << "grader quiz: could not save the score to the progress file\n";
  return course::kExitOk;
}

}  // namespace driver
