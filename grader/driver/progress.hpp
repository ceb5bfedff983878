// What a student has passed so far, kept across runs in <source>/.grader/progress.json.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "course/manifest.hpp"
#include "course/report.hpp"

namespace driver {

/// A lesson's self-check quiz results (`grader quiz LESSON`).
struct QuizScore {
  int score = 0;           ///< right answers in the last attempt
  int total = 0;           ///< scored questions in the last attempt
  int best_score = 0;      ///< the best attempt (by fraction right): right answers
  int best_total = 0;      ///< the best attempt: scored questions
  int attempts = 0;        ///< attempts recorded
  std::string last_taken;  ///< when the last attempt was recorded (ISO 8601)
  /// The first attempt was honest: taken before any attempt showed the quiz's answers (a preview
  /// that skipped every question shows them all). False: every recorded attempt is a retry.
  bool has_first = false;
  int first_score = 0;  ///< the honest first attempt: right answers (when has_first)
  int first_total = 0;  ///< the honest first attempt: scored questions (when has_first)
};

/// The student's progress file: steps passed, hint tiers seen, quiz results. Read once when
/// constructed; written only by save().
class Progress {
 public:
  /// Reads `path` if it exists; a missing file starts empty. Creates nothing. A file that is not
  /// progress (not JSON, not an object, or a field of another type than the grader writes, which
  /// the accessors could not read) is renamed aside to `path`.corrupt-<timestamp> and warning()
  /// says so; when it cannot be renamed, save() refuses to overwrite it.
  explicit Progress(std::string path);
  /// What the student should be told about the file read ("" = nothing), e.g. that a corrupt
  /// one was kept aside. The grader prints it on stderr.
  const std::string& warning() const { return warning_; }
  /// Records the steps graded in `lesson` when records_progress() says it counts.
  /// @return true when something was recorded (so the file needs saving)
  bool update(const course::LessonReport& lesson, const std::string& when);
  bool step_passed(const std::string& lesson, const std::string& step) const;
  /// True when the step's last grading skipped every test (this machine cannot grade it: too
  /// little memory, too old a GPU); the course map counts it as done.
  bool step_skipped_here(const std::string& lesson, const std::string& step) const;
  int hints_seen(const std::string& lesson, const std::string& step) const;
  /// The status of the step's last grading; none if never graded.
  std::optional<course::StepStatus> last_status(const std::string& lesson,
                                                const std::string& step) const;
  void set_hints_seen(const std::string& lesson, const std::string& step, int tiers);
  /// Best measured fraction of the ceiling for a step, or a negative value if never measured.
  double fraction(const std::string& lesson, const std::string& step) const;
  /// Records a finished quiz attempt for `lesson`: `score` right out of `total` scored questions.
  /// Keeps the best attempt (by fraction right) and counts the attempts. `first_try`: no earlier
  /// attempt showed this quiz's answers (answers_shown() was false when it started); the first
  /// such attempt is kept as the honest first score, every other one counts as a retry.
  void set_quiz_score(const std::string& lesson, int score, int total, const std::string& when,
                      bool first_try);
  /// Notes that an attempt at `lesson`'s quiz showed answers (its explanations), recorded or not:
  /// a preview that skipped every question, or one stopped half-way. Later attempts are retries.
  void note_answers_shown(const std::string& lesson);
  /// True when an earlier attempt at `lesson`'s quiz showed its answers (or one was recorded).
  bool answers_shown(const std::string& lesson) const;
  /// The quiz results of `lesson`, or no value if its quiz was never finished.
  std::optional<QuizScore> quiz_score(const std::string& lesson) const;
  /// Records a student's estimate (percent of the ceiling) for prediction question `question` of
  /// `lesson`'s quiz, which predicts step `measured_step` of `measured_lesson`.
  void set_prediction(const std::string& lesson, const std::string& question,
                      const std::string& measured_lesson, const std::string& measured_step,
                      double percent, const std::string& when);
  /// The last estimate recorded for a prediction question, in percent; negative if none.
  double prediction(const std::string& lesson, const std::string& question) const;
  /// Writes the file; returns false (and leaves the old one) if it cannot.
  bool save() const;
  /// What to tell the student after save() failed: the file, why (a folder that cannot be created
  /// or written, with the system's reason, or a file kept as it was), that this run's record is
  /// lost, and the fix (a writable folder or GRADER_STATE_DIR; moving or repairing a file kept).
  std::string save_failure() const;
  /// The progress file's path.
  const std::string& path() const { return path_; }

 private:
  void keep_corrupt_file();

  std::string path_;
  nlohmann::json data_;
  std::string warning_;
  bool read_only_ = false;  ///< a corrupt file that could not be moved aside: never overwrite it
};

/// Whether a graded lesson counts as the student's progress, the one place that decides it: a
/// grade (course::RunKind::grade) of the student's own code that graded at least one step. A
/// `--quick` grade (memcheck skipped), a `--sanitize` run (untimed), a `--variant` and a lesson
/// that graded no step (no GPU, build failed) never do.
bool records_progress(const course::LessonReport& lesson);

/// The current time as ISO 8601 UTC ("2025-01-31T12:00:00Z"), as progress records it.
std::string now_iso();

/// Steps of `lesson` passed, out of its required steps.
std::pair<int, int> lesson_progress(const Progress& p, const course::Lesson& lesson);

/// The quiz's part of a course map line: "quiz 3/5" (the honest first attempt), "quiz 3/5, 5/5 on
/// a retry" (a later attempt did better), "quiz 5/5 (retry)" (no honest first attempt: the
/// answers had been shown before any score was recorded).
std::string quiz_summary(const QuizScore& quiz);

/// The course map as JSON (`grader --json` without a lesson): {"format":
/// "cuda-course-grader-progress", "format_version": 1, "course", "course_version", "next" (the
/// next lesson to do, or null), "lessons": [{"lesson", "title", "stage", "status", "minutes"
/// (null when not stated), "steps_passed", "steps_total" (required steps; passed includes those
/// this machine cannot grade), "done", "steps": [{"step", "optional", "passed", "last" (the last
/// grading's status, or null), "fraction" (best fraction of the ceiling, or null)}], "quiz" (null,
/// or {"score", "total": the honest first attempt, null when every attempt was a retry;
/// "best_score", "best_total", "attempts", "retry": no honest first attempt})}]}.
nlohmann::json course_map_json(const course::Manifest& m, const Progress& p);

/// The course map: stages, lessons, time, status and progress (steps passed, the quiz score), and
/// the next lesson to do.
std::string course_map(const course::Manifest& m, const Progress& p, bool color,
                       const std::string& grader_command);

}  // namespace driver
