#include "devcheck.hpp"

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "course/config.hpp"
#include "course/layout.hpp"
#include "course/report.hpp"
#include "course/stats.hpp"
#include "course/text_file.hpp"
#include "course_checks.hpp"
#include "readme_map.hpp"

namespace driver {

namespace fs = std::filesystem;
namespace layout = course::layout;

namespace {

std::set<std::string> files_in(const fs::path& dir, const std::string& ext) {
  std::set<std::string> names;
  if (!fs::is_directory(dir)) return names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && (ext.empty() || e.path().extension() == ext))
      names.insert(e.path().filename().string());
  return names;
}

std::set<std::string> dirs_in(const fs::path& dir) {
  std::set<std::string> names;
  if (!fs::is_directory(dir)) return names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory()) names.insert(e.path().filename().string());
  return names;
}

// What a variant must do: the solution passes every step, the stub fails every step, a wrong
// kernel fails its step with its diagnosis in the report.
// Why a wrong kernel's step could not be graded on this machine (every test skipped: too little
// memory, too old a GPU), or "": such a check is a skip, not drift.
std::string why_step_not_gradable_here(const course::LessonReport& r, const std::string& step) {
  for (const course::StepReport& s : r.steps)
    if (s.name == step && s.status == course::StepStatus::skipped) return s.reason;
  return "";
}

std::string expectation_problem(const course::Lesson& lesson, const std::string& variant,
                                const course::LessonReport& r, const std::string& text) {
  if (r.status != course::LessonStatus::pass && r.status != course::LessonStatus::fail) {
    // A build failure's message ends "the compiler said:"; its first line of the log follows.
    const std::string said = course::first_line(r.build_log);
    return fmt::format("ended as {}: {}{}", to_string(r.status), r.message,
                       said.empty() ? "" : " " + said);
  }
  if (variant == "solution") {
    for (const course::StepReport& s : r.steps)
      if (s.status != course::StepStatus::pass && s.status != course::StepStatus::skipped)
        return fmt::format("step {} did not pass: {}", s.name, s.reason);
    return "";
  }
  if (variant == "stub") {
    for (const course::StepReport& s : r.steps)
      if (s.status == course::StepStatus::pass)
        return fmt::format("the untouched stub passes step {}", s.name);
    return "";
  }
  for (const course::WrongKernel& w : lesson.wrong_kernels) {
    if (w.name != variant) continue;
    for (const course::StepReport& s : r.steps) {
      if (s.name != w.step) continue;
      if (s.status == course::StepStatus::pass)
        return fmt::format("passes step {}: the grader missed it", w.step);
      if (text.find(w.diagnosis) == std::string::npos)
        return fmt::format("fails step {}, but the report lacks the diagnosis \"{}\"", w.step,
                           w.diagnosis);
      return "";
    }
    return fmt::format("step {} was not graded", w.step);
  }
  return fmt::format("unknown variant {}", variant);
}

// The "about N minutes" of a lesson's text (its first lines) against the manifest's "minutes",
// which the course maps show: "" when they agree or the text states no time.
std::string time_problem(const course::Lesson& l, const fs::path& src) {
  const std::string text = course::read_text(layout::readme(src, l.id)).value_or("");
  static const std::regex about("about ([0-9]+) minutes");
  std::smatch m;
  const std::string head = text.substr(0, 600);
  if (!std::regex_search(head, m, about)) return "";
  if (std::stoi(m[1].str()) == l.minutes) return "";
  return fmt::format("{}: {} says about {} minutes, the manifest's \"minutes\" says {}", l.id,
                     layout::readme("", l.id).generic_string(), m[1].str(),
                     l.minutes ? std::to_string(l.minutes) : "nothing");
}

}  // namespace

std::vector<std::string> layout_problems(const course::Manifest& m, const std::string& source_dir) {
  std::vector<std::string> out;
  const fs::path src(source_dir);
  std::set<std::string> ready;
  for (const course::Lesson& l : m.lessons) {
    if (!l.ready()) continue;
    ready.insert(l.id);
    const auto rel = [](const fs::path& p) { return p.generic_string(); };  // as the docs write it
    if (!fs::exists(layout::readme(src, l.id)))
      out.push_back(
          fmt::format("{}: {} (the lesson text) is missing", l.id, rel(layout::readme("", l.id))));
    else if (const std::string why = time_problem(l, src); !why.empty())
      out.push_back(why);
    const auto stub = files_in(layout::exercises(src, l.id), ".cu");
    const auto solution = files_in(layout::solutions(src, l.id), ".cu");
    if (stub.empty())
      out.push_back(fmt::format("{}: {}/ has no .cu stub", l.id, rel(layout::exercises("", l.id))));
    if (stub != solution) {
      // Name the files each side lacks (or the whole folder), not only that they differ.
      std::vector<std::string> lacking;
      for (const auto& [have, other, side] :
           {std::tuple{&stub, &solution, layout::solutions("", l.id)},
            std::tuple{&solution, &stub, layout::exercises("", l.id)}})
        for (const std::string& f : *have)
          if (!other->count(f)) lacking.push_back(rel(side / f));
      out.push_back(fmt::format("{}: {}/ does not mirror {}/ file for file: missing {}", l.id,
                                rel(layout::solutions("", l.id)), rel(layout::exercises("", l.id)),
                                fmt::join(lacking, ", ")));
    }
    if (files_in(layout::hidden_tests(src, l.id), ".cu").empty())
      out.push_back(
          fmt::format("{}: {}/ has no hidden tests", l.id, rel(layout::hidden_tests("", l.id))));
    std::set<std::string> listed;
    for (const course::WrongKernel& w : l.wrong_kernels) {
      listed.insert(w.name + ".cu");
      if (!fs::exists(layout::wrong_kernels(src, l.id) / (w.name + ".cu")))
        out.push_back(fmt::format("{}: wrong kernel {}.cu is missing", l.id,
                                  rel(layout::wrong_kernels("", l.id) / w.name)));
    }
    for (const std::string& f : files_in(layout::wrong_kernels(src, l.id), ".cu"))
      if (!listed.count(f))
        out.push_back(fmt::format("{}: {} is not listed in the manifest", l.id,
                                  rel(layout::wrong_kernels("", l.id) / f)));
  }
  for (const std::string top : layout::kLessonFolders)
    for (const std::string& d : dirs_in(src / top))
      // lessons/ may hold folders that are no lesson (shared material): only lesson ids count
      if (!ready.count(d) && (course::is_lesson_id(d) || top != layout::kLessonText))
        out.push_back(fmt::format("{}/{}/ belongs to no ready lesson in the manifest", top, d));
  return out;
}

namespace {

// Prints one check's problems as DRIFT lines, or its `ok` line; returns the number of problems.
int report(const std::vector<std::string>& problems, const std::string& ok) {
  for (const std::string& p : problems) fmt::print("DRIFT  {}\n", p);
  if (problems.empty()) fmt::print("ok     {}\n", ok);
  return static_cast<int>(problems.size());
}

// What needs no GPU: manifest, file layout, quizzes, hints, the README's course map.
int course_checks(const course::Manifest& m) {
  const std::string source = course::config::kSourceDir;
  std::vector<std::string> problems = m.problems();
  for (const std::string& p : layout_problems(m, source)) problems.push_back(p);
  const auto ready = std::count_if(m.lessons.begin(), m.lessons.end(),
                                   [](const course::Lesson& l) { return l.ready(); });
  int drift = report(problems, fmt::format("manifest and file layout ({} lessons, {} ready)",
                                           m.lessons.size(), ready));
  drift += report(
      quiz_problems(m, source),
      fmt::format("quizzes of the {} ready lessons: valid, every written answer pinned", ready));
  drift += report(hint_problems(m), "hints: three distinct tiers for every step");
  const std::string readme = (std::filesystem::path(source) / "README.md").string();
  drift += report(readme_problems(m, source, readme),
                  "README.md's course map and exit-code table are current");
  const std::string instructors =
      (std::filesystem::path(source) / "docs" / "INSTRUCTORS.md").string();
  drift += report(exit_code_table_problems(instructors),
                  "docs/INSTRUCTORS.md's exit-code table is current");
  return drift;
}

// --lesson and --only as lessons: the one --lesson names (""), and the lessons whose catalogues
// list --only's wrong kernel (names are unique per lesson only: both lessons have a
// `writes_nothing`). Returns an exit code for a usage error, or -1.
int resolve_filters(const course::Manifest& m, const DevCheckOptions& o, std::string& only_lesson,
                    std::set<std::string>& owners) {
  if (!o.lesson.empty()) {
    const course::Lesson* l = nullptr;
    try {
      l = course::resolve(m, o.lesson).lesson;
    } catch (const course::UsageError&) {
    }
    if (!l || !l->ready()) {
      fmt::print(stderr, "grader dev check: no ready lesson '{}'\n", o.lesson);
      return course::kExitUsage;
    }
    only_lesson = l->id;
  }
  if (o.only.empty() || o.only == "solution" || o.only == "stub") return -1;
  for (const course::Lesson& l : m.lessons)
    for (const course::WrongKernel& w : l.wrong_kernels)
      if (w.name == o.only) owners.insert(l.id);
  if (owners.empty()) {
    fmt::print(stderr,
               "grader dev check: no variant '{}'; variants are solution, stub and the wrong "
               "kernels listed in lessons/course.json\n",
               o.only);
    return course::kExitUsage;
  }
  if (!only_lesson.empty() && !owners.count(only_lesson)) {
    const std::string& owner = *owners.begin();
    fmt::print(stderr,
               "grader dev check: '{}' is a wrong kernel of {}, not of {}: drop --lesson or use "
               "--lesson {}\n",
               o.only, owner, only_lesson, owner);
    return course::kExitUsage;
  }
  return -1;
}

}  // namespace

VariantOutcome grade_variant(const course::Lesson& lesson, const std::string& v,
                             const DevCheckOptions& o, GradeOptions& g) {
  VariantOutcome out;
  g.variant = v;
  // A wrong kernel is graded only as the step it was submitted for.
  course::Selection sel{&lesson, nullptr};
  std::string tool;
  for (const course::WrongKernel& w : lesson.wrong_kernels)
    if (w.name == v) {
      sel.step = lesson.find_step(w.step);
      tool = w.sanitize;
    }
  for (int i = 0; i < o.repeat && out.problem.empty(); ++i) {
    nlohmann::json& device = out.device;
    std::string no_sanitizer;
    if (!tool.empty() && usable_sanitizer(g, no_sanitizer).empty()) {
      fmt::print("skip   {} {}: needs compute-sanitizer {}: {}\n", lesson.id, v, tool,
                 no_sanitizer);
      out.skipped = true;
      return out;
    }
    // The grade runs memcheck itself; the other tools need a sanitize run (untimed).
    GradeOptions run = g;
    if (!tool.empty() && tool != "memcheck") {
      run.kind = course::RunKind::sanitize;
      run.sanitize_tools = {tool};
    }
    course::LessonReport r = grade(sel, run, device);
    if (r.status == course::LessonStatus::no_gpu) {
      out.no_gpu = r.message;
      return out;
    }
    if (r.status == course::LessonStatus::unsupported) {
      out.unsupported = r.message;
      return out;
    }
    course::Report whole;
    whole.lessons.push_back(r);
    const std::string text = course::to_text(whole, course::TextOptions{false, true, "grader"});
    if (const std::string why = why_step_not_gradable_here(r, sel.step ? sel.step->name : "");
        sel.step && !why.empty()) {
      fmt::print("skip   {} {}: its step {} cannot be graded here: {}\n", lesson.id, v,
                 sel.step->name, why);
      out.skipped = true;
      return out;
    }
    out.problem = expectation_problem(lesson, v, r, text);
    if (!out.problem.empty()) fmt::print("{}", text);
    for (const course::StepReport& s : r.steps) {
      out.verdicts[s.name].insert(s.status);
      if (s.speed) out.ratios[s.name].push_back(s.speed->ratio);
    }
    g.seed += 1;  // each repeat sees other inputs
  }
  for (const auto& [step, seen] : out.verdicts)
    if (seen.size() > 1 && out.problem.empty())
      out.problem = fmt::format("step {} flipped between verdicts over {} runs", step, o.repeat);
  return out;
}

namespace {

// " naive 15.0% tiled 45.0%", or over repeats min..max and the median, which tells one low run
// from a low set (" overlap A%..B% (median M%)").
std::string figures(const VariantOutcome& outcome, int repeat) {
  std::string text;
  for (const auto& [step, rs] : outcome.ratios) {
    const course::Summary s = course::summarize(rs);
    text += repeat > 1 ? fmt::format(" {} {:.1f}%..{:.1f}% (median {:.1f}%)", step, 100 * s.min,
                                     100 * s.max, 100 * s.median)
                       : fmt::format(" {} {:.1f}%", step, 100 * s.median);
  }
  return text;
}

// The exit code when checks were skipped here (no GPU, no dev targets): drift still wins; else
// kExitNoGpu, never 0, so that CI and ctest (SKIP_RETURN_CODE, cmake/CourseLesson.cmake) can tell
// a run that skipped the grading from one that passed it.
int skipped_exit_code(int drift) {
  if (drift) {
    fmt::print("{} problem(s) found\n", drift);
    return course::kExitFailed;
  }
  fmt::print(
      "dev check: the checks that ran are as expected; the GPU checks were skipped (exit code "
      "{})\n",
      static_cast<int>(course::kExitNoGpu));
  return course::kExitNoGpu;
}

}  // namespace

int dev_check(const course::Manifest& m, const DevCheckOptions& o, GradeOptions g) {
  g.kind = course::RunKind::grade;  // the course as students get it graded
  g.skip_large = o.skip_large;
  int drift = course_checks(m);
  if (!course::config::kDevTargets) {
    fmt::print(
        "skip   GPU checks: this build has no dev targets. Run them from the test "
        "configuration: cmake --preset test && cmake --build build-test && "
        "./build-test/grader dev check\n");
    return skipped_exit_code(drift);
  }
  std::string only_lesson;
  std::set<std::string> owners;
  if (const int rc = resolve_filters(m, o, only_lesson, owners); rc >= 0) return rc;
  g.status_messages = false;
  bool any_skipped = false;
  for (const course::Lesson& lesson : m.lessons) {
    if (!lesson.ready() || (!only_lesson.empty() && lesson.id != only_lesson)) continue;
    // A wrong kernel is graded in its own lesson only: the others have no such target.
    if (!owners.empty() && !owners.count(lesson.id)) continue;
    std::vector<std::string> variants{"solution", "stub"};
    for (const course::WrongKernel& w : lesson.wrong_kernels) variants.push_back(w.name);
    if (!o.only.empty()) variants = {o.only};
    for (const std::string& v : variants) {
      const VariantOutcome outcome = grade_variant(lesson, v, o, g);
      if (!outcome.no_gpu.empty()) {
        fmt::print("skip   GPU checks: {}\n", outcome.no_gpu);
        return skipped_exit_code(drift);
      }
      // Every variant would say the same (they share the GPU and the build folder): once.
      if (!outcome.unsupported.empty()) {
        fmt::print("skip   {}: cannot be graded on this GPU: {}\n", lesson.id, outcome.unsupported);
        any_skipped = true;
        break;
      }
      any_skipped |= outcome.skipped;
      if (outcome.skipped) continue;
      const std::string of_ceiling = figures(outcome, o.repeat);
      if (outcome.problem.empty()) {
        fmt::print("ok     {} {}: as expected{}{}\n", lesson.id, v,
                   o.repeat > 1 ? fmt::format(" in {} runs", o.repeat) : "",
                   of_ceiling.empty() ? "" : " (of ceiling:" + of_ceiling + ")");
      } else {
        ++drift;
        fmt::print("DRIFT  {} {}: {}\n", lesson.id, v, outcome.problem);
      }
    }
  }
  fmt::print("{}\n", drift ? fmt::format("{} problem(s) found", drift)
                     : any_skipped
                         ? "dev check: all that ran as expected; some checks skipped (exit code 3)"
                         : "dev check: all as expected");
  // A skip is exit code 3, never 0: CI must not read checks that did not run as passed.
  if (drift) return course::kExitFailed;
  return any_skipped ? course::kExitNoGpu : course::kExitOk;
}

}  // namespace driver
