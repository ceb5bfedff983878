// What a student has passed so far, kept across runs in <source>/.grader/progress.json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "course/manifest.hpp"
#include "course/report.hpp"

namespace driver {

class Progress {
 public:
  explicit Progress(std::string path);
  /// Records the steps graded in `lesson` (the student's own code only, never a variant).
  void update(const course::LessonReport& lesson, const std::string& when);
  bool step_passed(const std::string& lesson, const std::string& step) const;
  int hints_seen(const std::string& lesson, const std::string& step) const;
  void set_hints_seen(const std::string& lesson, const std::string& step, int tiers);
  /// Best measured fraction of the ceiling for a step, or a negative value if never measured.
  double fraction(const std::string& lesson, const std::string& step) const;
  /// Writes the file; returns false (and leaves the old one) if it cannot.
  bool save() const;

 private:
  std::string path_;
  nlohmann::json data_;
};

/// Steps of `lesson` passed, out of its required steps.
std::pair<int, int> lesson_progress(const Progress& p, const course::Lesson& lesson);

/// The course map: stages, lessons, status and progress, and the next lesson to do.
std::string course_map(const course::Manifest& m, const Progress& p, bool color,
                       const std::string& grader_command);

}  // namespace driver
