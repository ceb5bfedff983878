#include "workflow.hpp"

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include <fmt/format.h>

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

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int run_reset(const course::Lesson& lesson, const std::string& source_dir,
              const std::string& state_dir, const ResetOptions& o) {
  std::ostream& out = *o.out;
  const fs::path dir = fs::path(source_dir) / "exercises" / lesson.id;
  if (!fs::is_directory(dir)) {
    out << fmt::format("grader reset: {} has no exercise folder ({})\n", lesson.id, dir.string());
    return 2;
  }
  std::map<std::string, std::string> pristine;  // file -> original content, for files that differ
  for (const auto& [file, stamp] : stamps(dir)) {
    const std::string rel = "exercises/" + lesson.id + "/" + file;
    const Captured c = run_capture({"git", "-C", source_dir, "show", "HEAD:" + rel});
    if (c.exit_code != 0) {
      out << fmt::format(
          "grader reset: cannot find the original {} in the course's git history "
          "(git show HEAD:{} failed). Nothing was changed.\n",
          rel, rel);
      return 5;
    }
    if (c.output != slurp(dir / file)) pristine[file] = c.output;
  }
  if (pristine.empty()) {
    out << fmt::format(
        "{}: every stub file is already as the course ships it (as in git HEAD). If you "
        "committed your work, the originals are in your git history: git log -- exercises/{}/\n",
        lesson.id, lesson.id);
    return 0;
  }
  out << fmt::format("This replaces your work in exercises/{}/ with the original stub:\n",
                     lesson.id);
  for (const auto& [file, content] : pristine) out << "  " << file << "\n";
  const fs::path backup = fs::path(state_dir) / "backup" / lesson.id;
  out << fmt::format("A copy of each file goes to {}/ first.\n", backup.string());
  if (!o.yes) {
    if (!o.interactive) {
      out << "Not confirmed: run it in a terminal, or add --yes. Nothing was changed.\n";
      return 1;
    }
    out << "Type yes to reset: " << std::flush;
    std::string answer;
    std::getline(*o.in, answer);
    if (answer != "yes") {
      out << "Not confirmed. Nothing was changed.\n";
      return 1;
    }
  }
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  std::error_code ec;
  fs::create_directories(backup, ec);
  for (const auto& [file, content] : pristine) {
    const fs::path saved = backup / (file + "." + stamp);
    fs::copy_file(dir / file, saved, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      out << fmt::format("grader reset: could not back up {} to {} ({}). Nothing was changed.\n",
                         file, saved.string(), ec.message());
      return 5;
    }
  }
  for (const auto& [file, content] : pristine) {
    std::ofstream(dir / file, std::ios::binary | std::ios::trunc) << content;
    out << fmt::format("restored {}  (your version: {})\n", (dir / file).string(),
                       (backup / (file + "." + stamp)).string());
  }
  return 0;
}

int run_watch(const course::Lesson& lesson, const std::string& source_dir, double interval,
              int max_runs, const std::function<int()>& grade) {
  const fs::path dir = fs::path(source_dir) / "exercises" / lesson.id;
  auto seen = stamps(dir);
  int runs = 0, rc = grade();
  ++runs;
  fmt::print("\nwatching exercises/{}/ for changes (Ctrl-C to stop) ...\n", lesson.id);
  while (max_runs <= 0 || runs < max_runs) {
    std::this_thread::sleep_for(std::chrono::duration<double>(interval));
    auto now = stamps(dir);
    if (now == seen) continue;
    seen = now;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // let the editor finish writing
    fmt::print("\n--- change detected, grading {} again ---\n", lesson.id);
    rc = grade();
    ++runs;
    fmt::print("\nwatching exercises/{}/ for changes (Ctrl-C to stop) ...\n", lesson.id);
  }
  return rc;
}

}  // namespace driver
