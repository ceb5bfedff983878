#include "class_row.hpp"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "course/layout.hpp"
#include "course/text_file.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxListed = 50;  // ignored files listed per row; the rest are counted

nlohmann::json base_row(const std::string& student, const ClassSettings& s,
                        const course::Manifest& manifest) {
  nlohmann::json steps = nlohmann::json::object();
  for (const std::string& lesson : s.lessons)
    for (const course::Step& step : manifest.find(lesson)->steps)
      steps[lesson + "." + step.name] = {
          {"status", ""}, {"reason", ""}, {"optional", step.optional}};
  return {{"student", student},
          {"status", "not_graded"},
          {"why", ""},
          {"score", 0},
          {"max_score", 0},
          {"steps", steps},
          {"seed_fingerprint", s.seed_fingerprint},
          {"submission",
           {{"fingerprint", ""},
            {"ref", ""},
            {"commit", ""},
            {"ignored", nlohmann::json::array()},
            {"missing", nlohmann::json::array()}}},
          {"tampered", nlohmann::json::array()},
          {"key", settings_key(s)}};
}

std::vector<std::string> capped(const std::vector<std::string>& v) {
  if (v.size() <= kMaxListed) return v;
  std::vector<std::string> out(v.begin(), v.begin() + kMaxListed);
  out.push_back(fmt::format("... and {} more", v.size() - kMaxListed));
  return out;
}

}  // namespace

void write_student_files(const ClassDir& dir, const std::string& student,
                         const course::Report& report, const nlohmann::json& row) {
  const fs::path d = dir.student(student);
  // A student who could not be graded at all (a missing folder, a bad ref) reads why, in
  // report.txt and in Gradescope's output, rather than an empty report.
  const std::string text =
      report.lessons.empty() && !row.value("why", "").empty()
          ? fmt::format("Not graded: {}\n", row.value("why", ""))
          : course::to_text(report, course::TextOptions{false, true, "grader"});
  course::write_text_atomically((d / "report.txt").string(), text);
  course::write_text_atomically((d / "report.json").string(),
                                course::to_json(report).dump(2) + "\n");
  course::write_text_atomically((d / "junit.xml").string(), course::to_junit(report));
  course::write_text_atomically((d / "results.json").string(),
                                course::to_gradescope(report, text).dump(2) + "\n");
  // Last: its presence says the student is graded.
  course::write_text_atomically((d / "row.json").string(), row.dump(2) + "\n");
}

std::vector<std::string> step_columns(const course::Manifest& manifest,
                                      const std::vector<std::string>& lessons) {
  std::vector<std::string> columns;
  for (const std::string& lesson : lessons)
    for (const course::Step& step : manifest.find(lesson)->steps)
      columns.push_back(lesson + "." + step.name);
  return columns;
}

std::string settings_key(const ClassSettings& s) {
  return sha256_hex(nlohmann::json{{"course", s.course_fingerprint},
                                   {"lessons", s.lessons},
                                   {"quick", s.quick},
                                   {"seed", s.seed_fingerprint},
                                   {"timeouts", {s.test_timeout, s.kernel_timeout}}}
                        .dump())
      .substr(0, 12);
}

nlohmann::json graded_row(const RosterEntry& entry, const ClassSettings& s,
                          const course::Manifest& manifest, const course::Report& report,
                          const Intake& intake, const std::vector<std::string>& tampered) {
  nlohmann::json row = base_row(entry.student, s, manifest);
  int score = 0, max_score = 0;
  std::string why;
  for (const course::LessonReport& l : report.lessons) {
    // Counted: the code was judged (graded, or it did not compile); not when this machine could
    // not grade it or the grader broke.
    const bool counted =
        !course::not_gradable_here(l.status) && l.status != course::LessonStatus::error;
    if (!counted && why.empty()) why = fmt::format("{}: {}", l.id, course::first_line(l.message));
    for (const course::Step& step : manifest.find(l.id)->steps) {
      nlohmann::json& cell = row["steps"][l.id + "." + step.name];
      if (counted && !step.optional) ++max_score;
      // A step its lesson did not reach: "fail" (or "build_failed") when counted, else the
      // lesson's status.
      cell["status"] = counted && l.status != course::LessonStatus::build_failed
                           ? to_string(course::StepStatus::fail)
                           : to_string(l.status);
      cell["reason"] = course::first_line(l.message);
      for (const course::StepReport& r : l.steps)
        if (r.name == step.name) {
          cell["status"] = to_string(r.status);
          // The first failure says what was wrong ("out[7]: expected 7, got 0"); the step's own
          // reason often only counts ("12 of 12 hidden tests failed"), which groups nothing in
          // the class summary (seen in the first H200 class demo).
          const bool said = !r.problems.empty() && !r.problems.front().failures.empty();
          cell["reason"] =
              said ? course::first_line(r.problems.front().failures.front()) : r.reason;
          if (r.status == course::StepStatus::pass && !step.optional) ++score;
        }
    }
  }
  row["status"] = why.empty() ? "graded" : "incomplete";
  row["why"] = why;
  row["score"] = score;
  row["max_score"] = max_score;
  row["submission"] = {{"fingerprint", intake.fingerprint},
                       {"ref", entry.ref},
                       {"commit", intake.commit},
                       {"ignored", capped(intake.ignored)},
                       {"missing", intake.missing}};
  row["tampered"] = capped(tampered);
  return row;
}

nlohmann::json not_graded_row(const std::string& student, const ClassSettings& s,
                              const course::Manifest& manifest, const std::string& why) {
  nlohmann::json row = base_row(student, s, manifest);
  row["why"] = why;
  return row;
}

bool has_current_row(const ClassDir& dir, const std::string& student, const ClassSettings& s) {
  const std::optional<std::string> text = course::read_text(dir.student(student) + "/row.json");
  if (!text) return false;
  const nlohmann::json row = nlohmann::json::parse(*text, nullptr, false);
  return row.is_object() && row.value("key", "") == settings_key(s);
}

bool needs_grading(const ClassDir& dir, const RosterEntry& entry, const ClassSettings& s) {
  const fs::path d = dir.student(entry.student);
  if (fs::exists(d / kRegradeMark)) return true;
  const nlohmann::json row = nlohmann::json::parse(
      course::read_text((d / "row.json").string()).value_or(""), nullptr, false);
  if (!row.is_object() || row.value("key", "") != settings_key(s) ||
      row.value("status", "") != "graded" || !row.contains("submission"))
    return true;
  const nlohmann::json& sub = row["submission"];
  if (!entry.ref.empty()) {
    const std::string commit = resolve_commit(entry);
    return commit.empty() || sub.value("commit", "") != commit;
  }
  if (!fs::is_directory(fs::path(entry.submission) / course::layout::kExercises)) return true;
  return sub.value("fingerprint", "") !=
         files_fingerprint(exercise_files(entry.submission, s.lessons, nullptr));
}

void mark_for_regrade(const ClassDir& dir, const std::string& student) {
  fs::create_directories(dir.student(student));
  course::write_text_atomically(dir.student(student) + "/" + kRegradeMark,
                                "graded again by its next task, then removed\n");
}

}  // namespace driver
