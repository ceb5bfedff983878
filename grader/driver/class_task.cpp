#include "class_task.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "class_row.hpp"
#include "class_submission.hpp"
#include "class_work_tree.hpp"
#include "course/config.hpp"
#include "grade.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

// Grades `lessons` in `tree`: every lesson is built first (no GPU needed; a lesson that does not
// compile is reported without one), then the GPU is taken for the rest.
course::Report grade_in_tree(const WorkTree& tree, const ClassDir& dir, const ClassSettings& s,
                             const course::Manifest& manifest, unsigned long long seed,
                             const TaskOptions& o) {
  GradeOptions g;
  g.binary_dir = tree.build().string();
  g.lesson_bin_dir = (tree.build() / "bin").string();
  g.seed = seed;
  g.test_timeout = s.test_timeout;
  g.kernel_timeout = s.kernel_timeout;
  if (s.quick) g.make_quick();
  g.status_messages = false;
  course::Report report;
  report.grader_version = course::config::kVersion;
  report.course_version = manifest.version;
  report.configuration = "exercises";
  std::vector<course::LessonReport> graded(s.lessons.size());
  std::vector<std::size_t> built;
  for (std::size_t i = 0; i < s.lessons.size(); ++i) {
    std::string log;
    if (build_target(g, target_name(s.lessons[i], ""), log)) {
      built.push_back(i);
    } else {  // graded now, without a GPU: the build fails again and says why
      graded[i] = grade({manifest.find(s.lessons[i]), nullptr}, g, report.device);
    }
  }
  FileLock gpu;
  if (!built.empty() && !o.gpus.empty()) gpu = take_gpu(dir, o.gpus);
  g.build = false;
  for (std::size_t i : built)
    graded[i] = grade({manifest.find(s.lessons[i]), nullptr}, g, report.device);
  report.lessons = graded;
  return report;
}

// One student: intake, work tree, grade, files.
void grade_student(const ClassDir& dir, const ClassSettings& s, const std::string& secret,
                   const RosterEntry& entry, const TaskOptions& o,
                   const course::Manifest& manifest) {
  const fs::path work(o.work_dir);
  const fs::path course = course_copy(dir, s, work);
  // The submission first, in a scratch folder of its own: one that cannot be read (a missing
  // folder, a bad ref) must not claim, or set up, a work tree (an instructor's re-run set up a
  // second tree from scratch because a missing submission had taken the first).
  const fs::path scratch = work / "intake" / entry.student;
  const Intake intake = take_submission(entry, s.lessons, course.string(), scratch.string());
  if (!intake.error.empty()) {
    nlohmann::json row = not_graded_row(entry.student, s, manifest, intake.error);
    row["submission"]["ref"] = entry.ref;
    row["submission"]["commit"] = intake.commit;
    write_student_files(dir, entry.student, {}, row);
    return;
  }
  WorkTree tree = claim_tree(s, work, course);
  restore_course_files(course, tree.src());  // whatever an earlier student's code left
  install_exercises(course, tree.src(), s.lessons, intake);
  const course::Report report =
      grade_in_tree(tree, dir, s, manifest, student_seed(secret, entry.student), o);
  const std::vector<std::string> tampered = restore_course_files(course, tree.src());
  write_student_files(dir, entry.student, report,
                      graded_row(entry, s, manifest, report, intake, tampered));
}

}  // namespace

int run_class_task(const ClassDir& dir, int index, const TaskOptions& o,
                   const course::Manifest& manifest) {
  try {
    const ClassSettings s = ClassSettings::load(dir);
    const std::vector<RosterEntry> roster = read_roster(dir.roster());
    const std::size_t from = static_cast<std::size_t>(index) * static_cast<std::size_t>(o.batch);
    if (index < 0 || from >= roster.size())
      throw ClassError(fmt::format("task {} is past the roster's {} students (batch {})", index,
                                   roster.size(), o.batch));
    const std::string secret = read_secret(s.secret_file);
    if (secret_fingerprint(secret) != s.seed_fingerprint)
      throw ClassError(fmt::format(
          "the class secret here is not the one the class was set up with (fingerprint {}, "
          "class.json says {})",
          secret_fingerprint(secret), s.seed_fingerprint));
    for (std::size_t i = from; i < std::min(roster.size(), from + o.batch); ++i) {
      const RosterEntry& e = roster[i];
      if (!o.regrade && !needs_grading(dir, e, s)) {
        fmt::print("{}: already graded in full, from the same submission\n", e.student);
        continue;
      }
      const auto start = std::chrono::steady_clock::now();
      grade_student(dir, s, secret, e, o, manifest);
      fs::remove(dir.student(e.student) + "/" + kRegradeMark);
      fmt::print("{}: done in {:.0f} s (its row says how it was graded)\n", e.student,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return course::kExitOk;
  } catch (const RosterError& e) {
    fmt::print(stderr, "grader class task: {}\n", e.what());
    return course::kExitUsage;
  } catch (const ClassError& e) {
    fmt::print(stderr, "grader class task: {}\n", e.what());
    return course::kExitUsage;
  } catch (const std::runtime_error& e) {  // a work tree that cannot be set up, a file system error
    fmt::print(stderr, "grader class task: {}\n", e.what());
    return course::kExitInternal;
  }
}

}  // namespace driver
