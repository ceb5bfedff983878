#include "workflow.hpp"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <fmt/format.h>

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

int run_reset(const course::Lesson& lesson, const std::string& source_dir,
              const std::string& state_dir, const ResetOptions& o) {
  std::ostream& out = *o.out;
  const fs::path dir = fs::path(source_dir) / "exercises" / lesson.id;
  if (run_capture({"git", "-C", source_dir, "rev-parse", "--git-dir"}).exit_code != 0) {
    out << fmt::format(
        "grader reset: {} is not a git checkout, so the original stub cannot be found "
        "here; take exercises/{}/ from the course repository. Nothing was changed.\n",
        source_dir, lesson.id);
    return 2;
  }
  // The course's files are the ones solutions/ mirrors; anything else in the folder is the
  // student's own and is left alone. Each is restored as the commit that added it shipped it
  // (students commit their work, so HEAD may hold their version, not the stub).
  std::map<std::string, std::string> pristine;  // file -> original content, where it differs
  for (const auto& [file, stamp] : stamps(fs::path(source_dir) / "solutions" / lesson.id)) {
    const std::string rel = "exercises/" + lesson.id + "/" + file;
    const Captured added =
        run_capture({"git", "-C", source_dir, "log", "--diff-filter=A", "--format=%H", "--", rel});
    std::string commit = added.output;
    while (!commit.empty() && commit.back() == '\n') commit.pop_back();
    if (const auto nl = commit.rfind('\n'); nl != std::string::npos) commit = commit.substr(nl + 1);
    const Captured c = run_capture({"git", "-C", source_dir, "show", commit + ":" + rel});
    if (commit.empty() || c.exit_code != 0) {
      out << fmt::format(
          "grader reset: the course's git history has no original {}. Nothing was "
          "changed.\n",
          rel);
      return 5;
    }
    if (!fs::exists(dir / file) ||
        c.output != course::read_text((dir / file).string()).value_or(""))
      pristine[file] = c.output;
  }
  if (pristine.empty()) {
    out << fmt::format(
        "{}: every stub file is already as the course shipped it; nothing to reset.\n", lesson.id);
    return 0;
  }
  out << fmt::format("This replaces your work in exercises/{}/ with the original stub:\n",
                     lesson.id);
  for (const auto& [file, content] : pristine)
    out << "  " << file << (fs::exists(dir / file) ? "" : "  (missing: it will be recreated)")
        << "\n";
  const fs::path backup = fs::path(state_dir) / "backup" / lesson.id;
  out << fmt::format("A copy of each file goes to {}/ first.\n", backup.string());
  if (!o.yes) {
    if (!o.interactive) {
      out << "Not confirmed: run it in a terminal, or add --yes. Nothing was changed.\n";
      return 2;
    }
    out << "Type yes to reset: " << std::flush;
    std::string answer;
    std::getline(*o.in, answer);
    if (answer != "yes") {
      out << "Not confirmed. Nothing was changed.\n";
      return 0;
    }
  }
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::error_code ec;
  fs::create_directories(backup, ec);
  std::map<std::string, fs::path> saved;
  for (const auto& [file, content] : pristine) {
    if (!fs::exists(dir / file)) continue;  // nothing of the student's to keep
    fs::path to = backup / (file + "." + stamp);
    for (int n = 1; fs::exists(to); ++n) to = backup / fmt::format("{}.{}-{}", file, stamp, n);
    fs::copy_file(dir / file, to, ec);  // never overwrites: `to` is new
    if (ec) {
      out << fmt::format("grader reset: could not back up {} to {} ({}). Nothing was changed.\n",
                         file, to.string(), ec.message());
      return 5;
    }
    saved[file] = to;
  }
  fs::create_directories(dir, ec);
  for (const auto& [file, content] : pristine) {
    std::ofstream(dir / file, std::ios::binary | std::ios::trunc) << content;
    out << fmt::format("restored {}{}\n", (dir / file).string(),
                       saved.count(file) ? "  (your version: " + saved[file].string() + ")" : "");
  }
  return 0;
}

int run_watch(const course::Lesson& lesson, const std::string& source_dir, double interval,
              int max_runs, const std::function<int()>& grade) {
  const fs::path dir = fs::path(source_dir) / "exercises" / lesson.id;
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
  fmt::print("\nwatching exercises/{}/ for changes (Ctrl-C to stop) ...\n", lesson.id);
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
    fmt::print("\nwatching exercises/{}/ for changes (Ctrl-C to stop) ...\n", lesson.id);
  }
  if (events >= 0) close(events);
  return rc;
}

}  // namespace driver
