#include "class_task.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "course/config.hpp"
#include "course/text_file.hpp"
#include "grade.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxListed = 50;  // ignored files listed per row; the rest are counted

// An exclusive flock on `path`, held until destroyed (also when the process dies).
class FileLock {
 public:
  FileLock() = default;
  // Blocks until the lock is had (wait) or returns unlocked when another holds it (!wait).
  FileLock(const fs::path& path, bool wait) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    int rc;
    while ((rc = ::flock(fd_, wait ? LOCK_EX : LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  FileLock(FileLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  FileLock& operator=(FileLock&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~FileLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

bool same_content(const fs::path& a, const std::string& content) {
  const std::optional<std::string> have = course::read_text(a.string());
  return have && *have == content;
}

// Relative paths of the regular files under `root`, not looking into `skip` folders (relative).
std::set<std::string> files_under(const fs::path& root, const std::set<std::string>& skip = {}) {
  std::set<std::string> out;
  if (!fs::is_directory(root)) return out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    const std::string rel = fs::relative(it->path(), root).generic_string();
    if (it->is_directory() && skip.count(rel)) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_directory()) out.insert(rel);
  }
  return out;
}

// The clean course, extracted from OUT/course.tar into <work>/course once per course fingerprint.
fs::path course_copy(const ClassDir& dir, const ClassSettings& s, const fs::path& work) {
  fs::create_directories(work);
  const FileLock lock(work / "course.lock", true);
  const fs::path course = work / "course", mark = work / "course.fingerprint";
  if (course::read_text(mark.string()).value_or("") == s.course_fingerprint) return course;
  fs::remove_all(course);
  fs::create_directories(course);
  const Captured c = run_capture({"tar", "-xf", dir.course_archive(), "-C", course.string()});
  if (c.exit_code != 0)
    throw ClassError(fmt::format("cannot extract {}: {}", dir.course_archive(), c.output));
  course::write_text_atomically(mark.string(), s.course_fingerprint);
  return course;
}

// Makes `src` hold exactly the course's files outside exercises/, restoring any that differ and
// removing any the course lacks; returns those paths (relative), sorted.
std::vector<std::string> restore_course_files(const fs::path& course, const fs::path& src) {
  std::vector<std::string> changed;
  const std::set<std::string> want = files_under(course, {"exercises"});
  for (const std::string& rel : want) {
    const std::string content = course::read_text((course / rel).string()).value_or("");
    if (same_content(src / rel, content)) continue;
    changed.push_back(rel);
    fs::create_directories((src / rel).parent_path());
    fs::copy_file(course / rel, src / rel, fs::copy_options::overwrite_existing);
  }
  for (const std::string& rel : files_under(src, {"exercises"}))
    if (!want.count(rel)) {
      changed.push_back(rel);
      fs::remove(src / rel);
    }
  std::sort(changed.begin(), changed.end());
  return changed;
}

// A work tree of <work>: tree-N/src (the course and a student's files) and tree-N/build, claimed
// by an flock so that tasks running side by side (several GPUs of a node) use different ones.
struct WorkTree {
  fs::path root;
  FileLock lock;
  fs::path src() const { return root / "src"; }
  fs::path build() const { return root / "build"; }
};

WorkTree claim_tree(const ClassSettings& s, const fs::path& work, const fs::path& course) {
  WorkTree tree;
  for (int i = 0;; ++i) {
    tree.root = work / fmt::format("tree-{}", i);
    fs::create_directories(tree.root);
    tree.lock = FileLock(tree.root / "lock", false);
    if (tree.lock.held()) break;
  }
  // Configured again only when the build's configuration changed. A new course needs no new
  // tree: each student's files are synced with the course (restore_course_files()) and the build
  // compiles what changed.
  const std::string setup = nlohmann::json{{"configure", s.configure_args}}.dump();
  const fs::path mark = tree.root / "setup.json";
  if (course::read_text(mark.string()).value_or("") == setup) return tree;
  fs::remove_all(tree.src());
  fs::remove_all(tree.build());
  fs::copy(course, tree.src(), fs::copy_options::recursive);
  std::vector<std::string> argv = {s.cmake, "-S", tree.src().string(), "-B", tree.build().string()};
  argv.insert(argv.end(), s.configure_args.begin(), s.configure_args.end());
  const Captured c = run_capture(argv);
  if (c.exit_code != 0) {
    const std::string log = (tree.root / "configure.log").string();
    course::write_text_atomically(log, c.output);
    throw std::runtime_error(fmt::format("the work tree {} did not configure (see {}): {}",
                                         tree.root.string(), log, c.output.substr(0, 2000)));
  }
  course::write_text_atomically(mark.string(), setup);
  return tree;
}

// Writes the graded lessons' exercises/ into `src`: the stubs, with the submission's files over
// them. A file already as wanted is left alone, so the build compiles only what changed.
void install_exercises(const fs::path& course, const fs::path& src,
                       const std::vector<std::string>& lessons, const Intake& intake) {
  for (const std::string& lesson : lessons) {
    const fs::path rel_dir = fs::path("exercises") / lesson;
    std::map<std::string, std::string> want;
    for (const std::string& f : files_under(course / rel_dir))
      want[(rel_dir / f).generic_string()] =
          course::read_text((course / rel_dir / f).string()).value_or("");
    for (const auto& [rel, content] : intake.files)
      if (rel.rfind(rel_dir.generic_string() + "/", 0) == 0) want[rel] = content;
    for (const std::string& f : files_under(src / rel_dir))
      if (!want.count((rel_dir / f).generic_string())) fs::remove(src / rel_dir / f);
    for (const auto& [rel, content] : want)
      if (!same_content(src / rel, content))
        course::write_text_atomically((src / rel).string(), content);
  }
}

// Takes one of `gpus` (OUT/locks/gpu-<id>.lock) for the GPU part of a grade, waiting while all
// are in use, and makes it the only GPU the hidden tests see.
FileLock take_gpu(const ClassDir& dir, const std::vector<std::string>& gpus) {
  fs::create_directories(dir.locks());
  for (;;) {
    for (const std::string& gpu : gpus) {
      FileLock lock(fs::path(dir.locks()) / ("gpu-" + gpu + ".lock"), false);
      if (!lock.held()) continue;
      setenv("CUDA_VISIBLE_DEVICES", gpu.c_str(), 1);
      return lock;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

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

// One student: intake, work tree, grade, files.
void grade_student(const ClassDir& dir, const ClassSettings& s, const std::string& secret,
                   const RosterEntry& entry, const TaskOptions& o,
                   const course::Manifest& manifest) {
  const fs::path work(o.work_dir);
  const fs::path course = course_copy(dir, s, work);
  WorkTree tree = claim_tree(s, work, course);
  const Intake intake =
      take_submission(entry, s.lessons, course.string(), (tree.root / "submission").string());
  if (!intake.error.empty()) {
    nlohmann::json row = not_graded_row(entry.student, s, manifest, intake.error);
    row["submission"]["ref"] = entry.ref;
    row["submission"]["commit"] = intake.commit;
    write_student_files(dir, entry.student, {}, row);
    return;
  }
  restore_course_files(course, tree.src());  // whatever an earlier student's code left
  install_exercises(course, tree.src(), s.lessons, intake);
  const course::Report report =
      grade_in_tree(tree, dir, s, manifest, student_seed(secret, entry.student), o);
  const std::vector<std::string> tampered = restore_course_files(course, tree.src());
  write_student_files(dir, entry.student, report,
                      graded_row(entry, s, manifest, report, intake, tampered));
}

// "git rev-parse REF^{commit}" of a git submission: the commit its ref names now ("" when none).
std::string resolve_commit(const RosterEntry& entry) {
  const Captured c = run_capture({"git", "-c", "safe.directory=*", "-C", entry.submission,
                                  "rev-parse", "--verify", "--quiet", entry.ref + "^{commit}"});
  return c.exit_code == 0 ? course::first_line(c.output) : "";
}

// Calls `visit(entry, rel)` for everything under `folder` that is not a folder (rel: its path
// relative to `root`), not looking into build trees, .git and .grader.
template <class Visit>
void walk_submission(const fs::path& root, const fs::path& folder, Visit visit) {
  for (auto it = fs::recursive_directory_iterator(folder); it != fs::recursive_directory_iterator();
       ++it) {
    const fs::path p = it->path();
    if (it->is_directory() && !it->is_symlink()) {
      const std::string name = p.filename().string();
      if (name == ".git" || name == ".grader" || fs::exists(p / "CMakeCache.txt"))
        it.disable_recursion_pending();
      continue;
    }
    visit(*it, fs::relative(p, root).generic_string());
  }
}

// The exercises/<lesson>/ files of `lessons` under `root` (relative path -> content); those that
// are not regular files (symlinks, devices) are listed in `skipped`. Build trees, .git and .grader
// are not looked into.
std::map<std::string, std::string> exercise_files(const fs::path& root,
                                                  const std::vector<std::string>& lessons,
                                                  std::vector<std::string>* skipped) {
  std::map<std::string, std::string> files;
  for (const std::string& lesson : lessons) {
    const fs::path dir = root / "exercises" / lesson;
    if (!fs::is_directory(dir)) continue;
    walk_submission(root, dir, [&](const fs::directory_entry& e, const std::string& rel) {
      if (e.is_symlink() || !e.is_regular_file()) {
        if (skipped) skipped->push_back(rel + " (not a regular file)");
      } else {
        files[rel] = course::read_text(e.path().string()).value_or("");
      }
    });
  }
  return files;
}

// 12 hex digits of a SHA-256 of `files`' paths and contents, in path order.
std::string files_fingerprint(const std::map<std::string, std::string>& files) {
  std::string listing;
  for (const auto& [rel, content] : files)
    listing += fmt::format("{}\n{}\n{}", rel, content.size(), content);
  return sha256_hex(listing).substr(0, 12);
}

}  // namespace

Intake take_submission(const RosterEntry& entry, const std::vector<std::string>& lessons,
                       const std::string& course_dir, const std::string& scratch) {
  Intake in;
  fs::path root = entry.submission;
  if (!entry.ref.empty()) {  // a git repository at a ref: its tree, extracted (the repository is
                             // only read)
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    const std::string tar = scratch + ".tar";
    const Captured c = run_capture({"git", "-c", "safe.directory=*", "-C", entry.submission,
                                    "archive", "--format=tar", "-o", tar, entry.ref});
    if (c.exit_code != 0) {
      in.error = fmt::format("git archive of {} at {} failed: {}", entry.submission, entry.ref,
                             course::first_line(c.output));
      return in;
    }
    const Captured x = run_capture({"tar", "-xf", tar, "-C", scratch});
    fs::remove(tar);
    if (x.exit_code != 0) {
      in.error = fmt::format("cannot extract {} at {}: {}", entry.submission, entry.ref, x.output);
      return in;
    }
    root = scratch;
    in.commit = resolve_commit(entry);
  }
  if (!fs::is_directory(root)) {
    in.error = fmt::format("the submission {} is not a folder", entry.submission);
    return in;
  }
  if (!fs::is_directory(root / "exercises")) {
    in.error = fmt::format("the submission {} has no exercises/ folder", entry.submission);
    return in;
  }
  const fs::path course(course_dir);
  in.files = exercise_files(root, lessons, &in.ignored);
  walk_submission(root, root, [&](const fs::directory_entry& e, const std::string& rel) {
    // A lesson's exercises/ file: taken by exercise_files() when the lesson is graded, else
    // not looked at.
    if (rel.rfind("exercises/", 0) == 0 && rel.find('/', 10) != std::string::npos) return;
    if (e.is_symlink() || !e.is_regular_file()) {
      in.ignored.push_back(rel + " (not a regular file)");
    } else if (!fs::exists(course / rel)) {
      in.ignored.push_back(rel + " (not part of the course)");
    } else if (!same_content(course / rel, course::read_text(e.path().string()).value_or(""))) {
      in.ignored.push_back(rel + " (differs from the course)");
    }
  });
  std::sort(in.ignored.begin(), in.ignored.end());
  for (const std::string& lesson : lessons)
    for (const std::string& f : files_under(course / "exercises" / lesson))
      if (!in.files.count("exercises/" + lesson + "/" + f))
        in.missing.push_back("exercises/" + lesson + "/" + f);
  in.fingerprint = files_fingerprint(in.files);
  return in;
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
  if (!fs::is_directory(fs::path(entry.submission) / "exercises")) return true;
  return sub.value("fingerprint", "") !=
         files_fingerprint(exercise_files(entry.submission, s.lessons, nullptr));
}

void mark_for_regrade(const ClassDir& dir, const std::string& student) {
  fs::create_directories(dir.student(student));
  course::write_text_atomically(dir.student(student) + "/" + kRegradeMark,
                                "graded again by its next task, then removed\n");
}

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
      fmt::print("{}: graded in {:.0f} s\n", e.student,
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
