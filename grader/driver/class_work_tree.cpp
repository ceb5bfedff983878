#include "class_work_tree.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "course/layout.hpp"
#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

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
  const std::set<std::string> want = files_under(course, {course::layout::kExercises});
  for (const std::string& rel : want) {
    const std::string content = course::read_text((course / rel).string()).value_or("");
    if (same_content(src / rel, content)) continue;
    changed.push_back(rel);
    fs::create_directories((src / rel).parent_path());
    fs::copy_file(course / rel, src / rel, fs::copy_options::overwrite_existing);
  }
  for (const std::string& rel : files_under(src, {course::layout::kExercises}))
    if (!want.count(rel)) {
      changed.push_back(rel);
      fs::remove(src / rel);
    }
  std::sort(changed.begin(), changed.end());
  return changed;
}

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
    const fs::path rel_dir = course::layout::exercises("", lesson);
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

}  // namespace driver
