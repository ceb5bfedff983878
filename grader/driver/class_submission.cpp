#include "class_submission.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "class_setup.hpp"
#include "course/layout.hpp"
#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

bool same_content(const fs::path& a, const std::string& content) {
  const std::optional<std::string> have = course::read_text(a.string());
  return have && *have == content;
}

// Relative paths of the regular files under `root`, not looking into `skip` folders (relative).
std::set<std::string> files_under(const fs::path& root, const std::set<std::string>& skip) {
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

// "git rev-parse REF^{commit}" of a git submission: the commit its ref names now ("" when none).
std::string resolve_commit(const RosterEntry& entry) {
  const Captured c = run_capture({"git", "-c", "safe.directory=*", "-C", entry.submission,
                                  "rev-parse", "--verify", "--quiet", entry.ref + "^{commit}"});
  return c.exit_code == 0 ? course::first_line(c.output) : "";
}

namespace {

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

}  // namespace

// The exercises/<lesson>/ files of `lessons` under `root` (relative path -> content); those that
// are not regular files (symlinks, devices) are listed in `skipped`. Build trees, .git and .grader
// are not looked into.
std::map<std::string, std::string> exercise_files(const fs::path& root,
                                                  const std::vector<std::string>& lessons,
                                                  std::vector<std::string>* skipped) {
  std::map<std::string, std::string> files;
  for (const std::string& lesson : lessons) {
    const fs::path dir = course::layout::exercises(root, lesson);
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

namespace {
Intake read_submission(const RosterEntry& entry, const std::vector<std::string>& lessons,
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
  if (!fs::is_directory(root / course::layout::kExercises)) {
    in.error = fmt::format("the submission {} has no exercises/ folder", entry.submission);
    return in;
  }
  const fs::path course(course_dir);
  in.files = exercise_files(root, lessons, &in.ignored);
  walk_submission(root, root, [&](const fs::directory_entry& e, const std::string& rel) {
    // A lesson's exercises/ file: taken by exercise_files() when the lesson is graded, else
    // not looked at.
    const std::string exercises = std::string(course::layout::kExercises) + "/";
    if (rel.rfind(exercises, 0) == 0 && rel.find('/', exercises.size()) != std::string::npos)
      return;
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
    for (const std::string& f : files_under(course::layout::exercises(course, lesson))) {
      const std::string rel = (course::layout::exercises("", lesson) / f).generic_string();
      if (!in.files.count(rel)) in.missing.push_back(rel);
    }
  in.fingerprint = files_fingerprint(in.files);
  return in;
}
}  // namespace

Intake take_submission(const RosterEntry& entry, const std::vector<std::string>& lessons,
                       const std::string& course_dir, const std::string& scratch) {
  Intake in = read_submission(entry, lessons, course_dir, scratch);
  // The intake holds the files' contents: a git submission's extracted tree is not needed after.
  std::error_code ignored;
  fs::remove_all(scratch, ignored);
  fs::remove(scratch + ".tar", ignored);
  return in;
}

}  // namespace driver
