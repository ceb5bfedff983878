#include "workflow.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "course/layout.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

std::map<std::string, fs::file_time_type> stamps(const fs::path& dir) {
  std::map<std::string, fs::file_time_type> s;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file()) s[e.path().filename().string()] = fs::last_write_time(e.path(), ec);
  return s;
}

}  // namespace

namespace {

// The newest commit of HEAD's history that changed a course-owned file of the lesson other than
// its stub: lessons/<id>/, solutions/<id>/ or grader/lessons/<id>/ (hidden tests and wrong
// kernels). Students commit their work in exercises/ only, so this commit is the course's, and the
// stub as of it is the one this checkout shipped: a course commit that changed the stub's kernels
// also changed the header, launchers or tests beside it. "" when there is none.
std::string course_commit(const std::string& source_dir, const std::string& id) {
  namespace layout = course::layout;
  const Captured c = run_capture({"git", "-C", source_dir, "log", "-1", "--format=%H", "HEAD", "--",
                                  layout::lesson_dir("", id).generic_string(),
                                  layout::solutions("", id).generic_string(),
                                  layout::hidden_tests("", id).generic_string()});
  return c.exit_code == 0 ? course::first_line(c.output) : "";
}

// The stub's files (exercises/<id>/*) as of `commit`, by file name; false when git cannot show one.
bool shipped_stub(const std::string& source_dir, const std::string& commit, const std::string& id,
                  std::map<std::string, std::string>& files) {
  const std::string folder = course::layout::exercises("", id).generic_string() + "/";
  const Captured listed =
      run_capture({"git", "-C", source_dir, "ls-tree", "--name-only", commit, folder});
  if (listed.exit_code != 0) return false;
  std::istringstream names(listed.output);
  for (std::string path; std::getline(names, path);) {
    if (path.empty()) continue;
    const Captured c = run_capture({"git", "-C", source_dir, "show", commit + ":" + path});
    if (c.exit_code != 0) return false;
    files[fs::path(path).filename().string()] = c.output;
  }
  return !files.empty();
}

// Asks for a typed "yes" unless --yes; returns the exit code when not confirmed, or -1.
int confirm(const ResetOptions& o) {
  if (o.yes) return -1;
  if (!o.interactive) {
    *o.out << "Not confirmed: run it in a terminal, or add --yes. Nothing was changed.\n";
    return course::kExitUsage;
  }
  *o.out << "Type yes to reset: " << std::flush;
  std::string answer;
  std::getline(*o.in, answer);
  if (answer == "yes") return -1;
  *o.out << "Not confirmed. Nothing was changed.\n";
  return course::kExitOk;
}

// Copies each student file about to be replaced to `backup` (never overwriting a backup); false
// with a message when one cannot be saved.
bool back_up(const fs::path& dir, const std::map<std::string, std::string>& replaced,
             const fs::path& backup, std::map<std::string, fs::path>& saved, std::ostream& out) {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::error_code ec;
  fs::create_directories(backup, ec);
  for (const auto& [file, content] : replaced) {
    if (!fs::exists(dir / file)) continue;  // nothing of the student's to keep
    fs::path to = backup / (file + "." + stamp);
    for (int n = 1; fs::exists(to); ++n) to = backup / fmt::format("{}.{}-{}", file, stamp, n);
    fs::copy_file(dir / file, to, ec);  // never overwrites: `to` is new
    if (ec) {
      out << fmt::format("grader reset: could not back up {} to {} ({}). Nothing was changed.\n",
                         file, to.string(), ec.message());
      return false;
    }
    saved[file] = to;
  }
  return true;
}

}  // namespace

int run_reset(const course::Lesson& lesson, const std::string& source_dir,
              const std::string& state_dir, const ResetOptions& o) {
  std::ostream& out = *o.out;
  const fs::path dir = course::layout::exercises(source_dir, lesson.id);
  if (run_capture({"git", "-C", source_dir, "rev-parse", "--git-dir"}).exit_code != 0) {
    out << fmt::format(
        "grader reset: {} is not a git checkout, so the original stub cannot be found "
        "here; take exercises/{}/ from the course repository. Nothing was changed.\n",
        source_dir, lesson.id);
    return course::kExitUsage;
  }
  const std::string commit = course_commit(source_dir, lesson.id);
  std::map<std::string, std::string> shipped;
  if (commit.empty() || !shipped_stub(source_dir, commit, lesson.id, shipped)) {
    out << fmt::format(
        "grader reset: the course's git history has no stub of {} (exercises/{}/ in the last "
        "commit of lessons/{}/). Nothing was changed.\n",
        lesson.id, lesson.id, lesson.id);
    return course::kExitInternal;
  }
  // Only the stub's own files: anything else in the folder is the student's and stays.
  std::map<std::string, std::string> replaced;
  for (const auto& [file, content] : shipped)
    if (course::read_text((dir / file).string()) != content) replaced[file] = content;
  if (replaced.empty()) {
    out << fmt::format(
        "{}: every stub file is already as the course shipped it; nothing to reset.\n", lesson.id);
    return course::kExitOk;
  }
  out << fmt::format(
      "This replaces your work in exercises/{}/ with the stub as this checkout "
      "of the course shipped it (commit {}):\n",
      lesson.id, commit.substr(0, 12));
  for (const auto& [file, content] : replaced)
    out << "  " << file << (fs::exists(dir / file) ? "" : "  (missing: it will be recreated)")
        << "\n";
  const fs::path backup = fs::path(state_dir) / "backup" / lesson.id;
  out << fmt::format("A copy of each file goes to {}/ first.\n", backup.string());
  if (const int rc = confirm(o); rc >= 0) return rc;
  std::map<std::string, fs::path> saved;
  if (!back_up(dir, replaced, backup, saved, out)) return course::kExitInternal;
  std::error_code ec;
  fs::create_directories(dir, ec);
  for (const auto& [file, content] : replaced) {
    std::ofstream(dir / file, std::ios::binary | std::ios::trunc) << content;
    out << fmt::format("restored {}{}\n", (dir / file).string(),
                       saved.count(file) ? "  (your version: " + saved[file].string() + ")" : "");
  }
  return course::kExitOk;
}

int run_watch(const course::Lesson& lesson, const std::string& source_dir, double interval,
              int max_runs, const std::function<int()>& grade) {
  const fs::path dir = course::layout::exercises(source_dir, lesson.id);
  // File events (inotify) wake us at once after a save; the modification-time comparison below
  // runs after every wake-up and every `interval` seconds, so file systems that deliver no
  // events (network mounts, some WSL paths) still work, only slower.
  int events = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (events >= 0 && inotify_add_watch(events, dir.c_str(),
                                       IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE) < 0) {
    close(events);
    events = -1;  // no events here: modification times alone
  }
  auto seen = stamps(dir);
  int runs = 0, rc = grade();
  ++runs;
  // Said only when another run may follow; on a machine that cannot grade (no GPU: exit code 3),
  // a save is still built, so compile errors show, and the line says that is all it does.
  const auto say_watching = [&] {
    if (max_runs > 0 && runs >= max_runs) return;
    fmt::print("\nwatching exercises/{}/ for changes{} (Ctrl-C to stop) ...\n", lesson.id,
               rc == course::kExitNoGpu
                   ? ": this machine cannot grade (above), so a change is only compiled"
                   : "");
  };
  say_watching();
  while (max_runs <= 0 || runs < max_runs) {
    if (events >= 0) {
      pollfd p{events, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(interval * 1000)) > 0) {
        char buf[4096];
        while (read(events, buf, sizeof buf) > 0) {
        }
      }
    } else {
      std::this_thread::sleep_for(std::chrono::duration<double>(interval));
    }
    auto now = stamps(dir);
    if (now == seen) continue;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let the editor finish writing
    seen = stamps(dir);
    fmt::print("\n--- change detected, grading {} again ---\n", lesson.id);
    rc = grade();
    ++runs;
    say_watching();
  }
  if (events >= 0) close(events);
  return rc;
}

}  // namespace driver
