#include "gradebook.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "class_row.hpp"
#include "course/stats.hpp"
#include "course/text_file.hpp"

namespace driver {

namespace {

constexpr int kDiagnosesShown = 3;  // per step in the summary

// How a cell of row.json counts. Its status is a step's, or its lesson's where the lesson graded
// no step (class_row.hpp, graded_row()).
enum class CellScore { passed, failed, did_not_compile, not_counted };

CellScore score_of(const std::string& status) {
  if (const auto step = course::parse_status<course::StepStatus>(status)) {
    if (*step == course::StepStatus::pass) return CellScore::passed;
    if (*step == course::StepStatus::fail) return CellScore::failed;
  }
  if (course::parse_status<course::LessonStatus>(status) == course::LessonStatus::build_failed)
    return CellScore::did_not_compile;
  return CellScore::not_counted;  // skipped here, or not graded
}

std::string cell(const std::string& status) {
  switch (score_of(status)) {
    case CellScore::passed:
      return "1";
    case CellScore::failed:
    case CellScore::did_not_compile:
      return "0";
    case CellScore::not_counted:
      break;
  }
  return "";
}

std::string summary_text(const nlohmann::json& book, const std::vector<std::string>& columns) {
  const nlohmann::json& rows = book["rows"];
  int graded = 0, incomplete = 0, not_graded = 0;
  std::vector<double> scores;
  int max_score = 0;
  std::map<std::string, std::vector<std::string>> problems;  // why -> students
  std::string outside, tampered;
  for (const nlohmann::json& r : rows) {
    const std::string status = r["status"];
    graded += status == "graded";
    incomplete += status == "incomplete";
    not_graded += status == "not_graded";
    if (status == "graded") {
      scores.push_back(r["score"].get<double>());
      max_score = std::max(max_score, r["max_score"].get<int>());
    } else {
      problems[fmt::format("{}: {}", status, r["why"].get<std::string>())].push_back(r["student"]);
    }
    if (!r["submission"]["ignored"].empty())
      outside += fmt::format("- {}: {}\n", r["student"].get<std::string>(),
                             r["submission"]["ignored"].dump());
    if (!r["tampered"].empty())
      tampered += fmt::format("- {}: {}\n", r["student"].get<std::string>(), r["tampered"].dump());
  }
  std::string s =
      fmt::format("# Class summary\n\n{} students: {} graded, {} incomplete, {} not graded.\n",
                  rows.size(), graded, incomplete, not_graded);
  s += fmt::format(
      "Inputs drawn from the class secret with fingerprint {} (a SHA-256 of it; the "
      "secret itself is written nowhere).\n\n",
      book["seed_fingerprint"].get<std::string>());
  if (!scores.empty()) {
    const course::Summary sum = course::summarize(scores);
    double mean = 0;
    for (double x : scores) mean += x / static_cast<double>(scores.size());
    s += fmt::format(
        "## Scores (required steps passed, of {})\n\nmean {:.1f}, median {:g}, min {:g}, max "
        "{:g}\n\n",
        max_score, mean, sum.median, sum.min, sum.max);
    for (int k = max_score; k >= 0; --k) {
      const auto n = std::count(scores.begin(), scores.end(), static_cast<double>(k));
      if (n)
        s +=
            fmt::format("    {:>3} | {} {}\n", k, std::string(static_cast<std::size_t>(n), '#'), n);
    }
    s += "\n";
  }
  // Steps by how many graded students failed them, with their most common diagnoses.
  struct Diagnosis {
    int count = 0;
    std::string example;  // the first student's headline, with its own figures
    bool alike = true;    // every headline of the group is the example, figures included
  };
  struct StepTally {
    std::string column;
    int failed = 0, passed = 0;
    std::map<std::string, Diagnosis> reasons;  // by diagnosis_group
  };
  std::vector<StepTally> tallies;
  for (const std::string& c : columns) {
    StepTally t{c};
    for (const nlohmann::json& r : rows) {
      const nlohmann::json& cellj = r["steps"][c];
      const CellScore score = score_of(cellj["status"]);
      if (score == CellScore::passed) ++t.passed;
      if (score == CellScore::failed || score == CellScore::did_not_compile) {
        ++t.failed;
        const std::string headline = score == CellScore::did_not_compile
                                         ? "did not compile"
                                         : diagnosis_headline(cellj["reason"]);
        Diagnosis& d = t.reasons[diagnosis_group(headline)];
        if (d.count++ == 0) d.example = headline;
        d.alike &= headline == d.example;
      }
    }
    tallies.push_back(t);
  }
  std::stable_sort(tallies.begin(), tallies.end(),
                   [](const StepTally& a, const StepTally& b) { return a.failed > b.failed; });
  s += "## Steps the class fails most\n\n";
  const bool any_graded = std::any_of(tallies.begin(), tallies.end(), [](const StepTally& t) {
    return t.failed > 0 || t.passed > 0;
  });
  if (!any_graded)  // a table of zeros says nothing: say why there is none
    s += "No step was graded: every row is incomplete or not graded (below).\n";
  else
    s += "| step | failed | passed | most common diagnoses |\n| --- | --- | --- | --- |\n";
  for (const StepTally& t : tallies) {
    if (!any_graded) break;
    std::vector<const Diagnosis*> by_count;
    for (const auto& [group, diagnosis] : t.reasons) by_count.push_back(&diagnosis);
    std::stable_sort(by_count.begin(), by_count.end(),
                     [](const Diagnosis* a, const Diagnosis* b) { return a->count > b->count; });
    std::string d;
    for (int i = 0; i < std::min<int>(kDiagnosesShown, static_cast<int>(by_count.size())); ++i)
      d += fmt::format("{}{} x {}\"{}\"", i ? "; " : "", by_count[i]->count,
                       by_count[i]->alike ? "" : "like ", by_count[i]->example);
    s += fmt::format("| {} | {} | {} | {} |\n", t.column, t.failed, t.passed, d);
  }
  if (!problems.empty()) s += "\n## Not fully graded\n\n";
  for (const auto& [why, students] : problems) {
    std::string names;
    for (const std::string& n : students) names += (names.empty() ? "" : ", ") + n;
    s += fmt::format("- {} student(s), {}\n  {}\n", students.size(), why, names);
  }
  if (!outside.empty())
    s +=
        "\n## Files outside exercises/ that were ignored (only exercises/ is graded)\n\n" + outside;
  if (!tampered.empty())
    s += "\n## Course files changed while the submission ran (restored; look at these)\n\n" +
         tampered;
  return s;
}

}  // namespace

std::string diagnosis_headline(const std::string& reason) {
  constexpr std::size_t kLongest = 120;
  std::string h = course::first_line(reason);
  for (char& c : h)  // it goes into one Markdown table cell
    if (c == '|')
      c = '/';
    else if (static_cast<unsigned char>(c) < 0x20)
      c = ' ';
  // "<case>, seed <n>: <what went wrong>": the case differs per student, the mistake does not.
  // Only a leading case: a seed quoted inside a longer message (memcheck's "(first: ...)") stays.
  if (const auto seed = h.find("seed "); seed != std::string::npos && h.find('(') > seed)
    if (const auto colon = h.find(": ", seed); colon != std::string::npos) h.erase(0, colon + 2);
  // "; first mismatch at X: expected E, got G" locates one element: left out, the lesson's
  // advice after it kept.
  if (const auto at = h.find("; first mismatch at "); at != std::string::npos) {
    std::size_t end = h.find(", got ", at);
    end = end == std::string::npos ? h.size() : h.find(' ', end + 6);
    if (end != std::string::npos && h.compare(end, 2, " (") == 0) end = h.find(')', end);
    h.erase(at, end == std::string::npos ? std::string::npos : end + (h[end] == ')') - at);
  }
  if (h.size() > kLongest) {
    std::size_t cut = h.rfind(' ', kLongest);
    if (cut == std::string::npos || cut == 0) cut = kLongest;
    while (cut > 0 && (static_cast<unsigned char>(h[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    h.resize(cut);
    h += "...";
  }
  return h.empty() ? "(no reason given)" : h;
}

std::string diagnosis_group(const std::string& headline) {
  // Figures as the grader writes them ("1,234", "25.3") become one "#".
  std::string key;
  for (std::size_t i = 0; i < headline.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(headline[i]))) {
      key += headline[i];
      continue;
    }
    while (i + 1 < headline.size() && (std::isdigit(static_cast<unsigned char>(headline[i + 1])) ||
                                       headline[i + 1] == '.' || headline[i + 1] == ','))
      ++i;
    key += '#';
  }
  return key;
}

Gradebook collect_gradebook(const ClassDir& dir, const course::Manifest& manifest,
                            const std::map<std::string, std::string>& why_missing) {
  const ClassSettings s = ClassSettings::load(dir);
  std::vector<RosterEntry> roster;
  try {
    roster = read_roster(dir.roster());
  } catch (const RosterError& e) {
    throw ClassError(e.what());
  }
  const std::vector<std::string> columns = step_columns(manifest, s.lessons);
  Gradebook out;
  out.json = {{"format", "cuda-course-gradebook"},
              {"format_version", 1},
              {"course", s.course_origin},
              {"lessons", s.lessons},
              {"seed_fingerprint", s.seed_fingerprint},
              {"columns", columns},
              {"rows", nlohmann::json::array()}};
  std::vector<std::string> header = {"student", "status", "score", "max_score"};
  header.insert(header.end(), columns.begin(), columns.end());
  for (const char* c :
       {"why", "seed_fingerprint", "ignored_files", "tampered_files", "ref", "commit"})
    header.push_back(c);
  out.csv = csv_line(header);
  for (const RosterEntry& e : roster) {
    nlohmann::json row;
    if (has_current_row(dir, e.student, s)) {
      row = nlohmann::json::parse(*course::read_text(dir.student(e.student) + "/row.json"));
    } else {
      const auto it = why_missing.find(e.student);
      row = not_graded_row(e.student, s, manifest,
                           it != why_missing.end() ? it->second : "no result yet");
      ++out.missing;
    }
    row.erase("key");
    std::vector<std::string> fields = {e.student, row["status"],
                                       std::to_string(row["score"].get<int>()),
                                       std::to_string(row["max_score"].get<int>())};
    for (const std::string& c : columns) fields.push_back(cell(row["steps"][c]["status"]));
    fields.push_back(row["why"]);
    fields.push_back(row["seed_fingerprint"]);
    fields.push_back(std::to_string(row["submission"]["ignored"].size()));
    fields.push_back(std::to_string(row["tampered"].size()));
    fields.push_back(row["submission"].value("ref", ""));  // a git submission's, as graded
    fields.push_back(row["submission"].value("commit", ""));
    out.csv += csv_line(fields);
    out.json["rows"].push_back(row);
  }
  out.summary = summary_text(out.json, columns);
  course::write_text_atomically(dir.root + "/gradebook.csv", out.csv);
  course::write_text_atomically(dir.root + "/gradebook.json", out.json.dump(2) + "\n");
  course::write_text_atomically(dir.root + "/summary.md", out.summary);
  return out;
}

}  // namespace driver
