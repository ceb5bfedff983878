#include "build.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <thread>

#include <cxxabi.h>
#include <fmt/format.h>

#include "checkout.hpp"
#include "course/config.hpp"
#include "course/layout.hpp"
#include "course/text_file.hpp"
#include "process.hpp"
#include "run_lock.hpp"

namespace driver {

namespace fs = std::filesystem;

std::string target_name(const std::string& lesson, const std::string& variant) {
  return variant.empty() ? "grade_" + lesson : "grade_" + lesson + "__" + variant;
}

namespace {

// The symbol after `markers`' first match in a linker's line, up to the closing quote (or the
// line's end for a marker ending in ": "), demangled; "" when no marker matches.
std::string symbol_after(const std::string& line, std::initializer_list<const char*> markers) {
  for (const std::string marker : markers) {
    const auto at = line.find(marker);
    if (at == std::string::npos) continue;
    const auto from = at + marker.size();
    const auto to = marker.back() == ' ' ? line.size() : line.find('\'', from);
    if (to == std::string::npos) return "";
    const std::string symbol = line.substr(from, to - from);
    int status = -1;
    char* plain = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    const std::string out = status == 0 && plain ? plain : symbol;
    std::free(plain);
    return out;
  }
  return "";
}

// The symbol of a linker's "undefined reference" line. ld: "...: undefined reference to
// `transpose::transpose_tiled(float const*, float*, int, int)'"; nvlink (-rdc): "nvlink error   :
// Undefined reference to '_Z9load_tilePKfi' in 'dev.o'".
std::string undefined_symbol(const std::string& line) {
  return symbol_after(line, {"undefined reference to `", "Undefined reference to '"});
}

// The symbol of a linker's "defined twice" line (two files of the folder define it). ld:
// "...: multiple definition of `vector_add::add(float const*, ...)'; ...: first defined here";
// gold: "multiple definition of 'X'"; lld: "ld.lld: error: duplicate symbol: vector_add::add(...)".
std::string twice_defined_symbol(const std::string& line) {
  return symbol_after(
      line, {"multiple definition of `", "multiple definition of '", "duplicate symbol: "});
}

// Adds `symbol` to `list` unless empty or there already.
void add_once(std::vector<std::string>& list, const std::string& symbol) {
  if (!symbol.empty() && std::find(list.begin(), list.end(), symbol) == list.end())
    list.push_back(symbol);
}

}  // namespace

std::string compiler_errors(const std::string& out, std::size_t max_lines) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::vector<std::string> kept;
  std::vector<std::string> missing;  // symbols the linker found no definition of
  std::vector<std::string> twice;    // symbols defined in two of the lesson's files
  std::size_t keep_after = 0;
  for (const std::string& l : lines) {
    const std::string symbol = undefined_symbol(l);
    add_once(missing, symbol);
    add_once(twice, twice_defined_symbol(l));
    // ld says where the reference is ("...o: in function `launch_transpose(...)':") just before.
    const bool err = l.find("error") != std::string::npos || l.find("Error") != std::string::npos ||
                     !symbol.empty() || l.find(": in function `") != std::string::npos;
    if (err) keep_after = 2;
    if (err || keep_after > 0) {
      if (kept.size() < max_lines) kept.push_back(l);
      if (!err) --keep_after;
    }
  }
  if (kept.empty()) {  // no recognizable error line: show the tail
    const std::size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
    kept.assign(lines.begin() + static_cast<long>(from), lines.end());
  }
  std::string s;
  if (!missing.empty()) {
    s = "the link failed: a kernel the lesson's header declares is missing from your file: did "
        "you delete or rename it? (Or a function you call is declared but never defined.) No "
        "definition of:\n";
    for (const std::string& m : missing) s += "  " + m + "\n";
  }
  if (!twice.empty()) {
    s += "the link failed: two files of the lesson define the same function. Every .cu file in "
         "the lesson's exercises/ folder is compiled into it, a backup copy of your kernel file or "
         "a scratch file too: keep one, and move the others out of the folder. Defined twice:\n";
    for (const std::string& t : twice) s += "  " + t + "\n";
  }
  for (const std::string& l : kept) s += l + "\n";
  return s;
}

namespace {

// gmake's and Ninja's words for a target their build files do not have.
bool names_unknown_target(const std::string& build_output) {
  return build_output.find("No rule to make target") != std::string::npos ||
         build_output.find("unknown target") != std::string::npos;
}

// CMake's words when the build folder itself is broken, not the code it builds: its cache gone
// ("could not load cache") or made for another folder (a moved checkout), or a file of its own
// missing (`rm -rf build/CMakeFiles`: "Error processing file", the check of the build system).
// A configure that stops on a file the lesson needs (cmake/CourseLesson.cmake's "course configure
// error:", e.g. a deleted stub) fails the same check of the build system: that one is the lesson's.
bool names_broken_build_folder(const std::string& build_output) {
  if (build_output.find("course configure error:") != std::string::npos) return false;
  // CMake 3's and CMake 4's words ("not a CMake build directory": 4.x without CMakeCache.txt).
  for (const char* words :
       {"could not load cache", "not a CMake build directory", "Error processing file",
        "is different than the directory", "cmake_check_build_system", "rebuilding 'build.ninja'",
        "loading 'build.ninja'", "ninja: error: build.ninja:"})
    if (build_output.find(words) != std::string::npos) return true;
  return false;
}

bool in_student_files(const std::string& line) {
  for (const std::string folder : {course::layout::kExercises, course::layout::kSolutions})
    if (line.find(folder + "/") != std::string::npos) return true;
  return false;
}

// True when the build compiled one of the student's files (its warnings are then in the output).
bool compiled_student_file(const std::string& build_output) {
  std::istringstream in(build_output);
  for (std::string l; std::getline(in, l);)
    if (l.find("Building") != std::string::npos && in_student_files(l)) return true;
  return false;
}

}  // namespace

std::string student_warnings(const std::string& build_output, const std::string& source_dir) {
  const std::string prefix = source_dir.empty() ? "" : source_dir + "/";
  std::string out;
  std::istringstream in(build_output);
  int context = 0;  // lines still to keep under a warning
  for (std::string l; std::getline(in, l);) {
    if (l.find("warning") != std::string::npos && in_student_files(l) &&
        l.find("Building") == std::string::npos) {
      if (!prefix.empty())
        for (auto at = l.find(prefix); at != std::string::npos; at = l.find(prefix))
          l.erase(at, prefix.size());
      out += l + "\n";
      context = 3;
    } else if (context > 0 && !l.empty() && l[0] == ' ') {
      out += l + "\n";
      --context;
    } else {
      context = 0;
    }
  }
  return out;
}

std::string first_build_note(const std::string& lesson, const std::string& variant) {
  // Measured on 2 cores (docs/measured/setup-2core.md, twentieth session): lesson 01's first
  // build after `grader`'s, the harness it shares with every lesson included, took 23.9 s for
  // sm_75, sm_80 and sm_90 and 21.9 s for sm_90 alone; its three CUDA files, which nvcc compiles
  // once per architecture, 12.2 s and 8.9 s of job time. A later lesson reuses the harness but
  // compiles larger hidden tests (lesson 10's: 11.5 s for sm_90 alone), hence "up to". On the
  // twenty-fifth session's slower machine, the grade that did this build took 42.9 s, and 27.9 s
  // once the harness was one unit (the whole grade, exit 3 there for want of a GPU).
  constexpr int kFirstBuildSecondsBase = 20;
  constexpr int kFirstBuildSecondsPerArchitecture = 3;
  std::vector<std::string> archs;
  std::istringstream in(course::config::kCudaArchitectures);
  for (std::string a; std::getline(in, a, ';');)
    if (!a.empty()) archs.push_back("sm_" + a.substr(0, a.find('-')));
  std::string list;
  for (std::size_t i = 0; i < archs.size(); ++i)
    list += (i == 0 ? "" : i + 1 == archs.size() ? " and " : ", ") + archs[i];
  const int seconds =
      kFirstBuildSecondsBase + kFirstBuildSecondsPerArchitecture * static_cast<int>(archs.size());
  return fmt::format(
      "building {}'s hidden tests{} for {} (first build of this lesson: up to about {} s on 2 "
      "cores) ...",
      lesson, variant.empty() ? "" : " with the " + variant + " kernels",
      list.empty() ? "this GPU" : list, seconds);
}

bool build_target(const GradeOptions& o, const std::string& target, std::string& log,
                  std::string* warnings, bool* folder_broken) {
  if (folder_broken) *folder_broken = false;
  const unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  // Two builds in one build tree at once (two lessons graded side by side) can corrupt it.
  std::error_code ignored;
  fs::create_directories(runs_dir(o), ignored);
  const RunLock lock(runs_dir(o) / "build.lock", "building in " + o.binary_dir, o.status_messages);
  const auto build = [&] {
    return run_capture({course::config::kCMake, "--build", o.binary_dir, "--target", target,
                        "--parallel", std::to_string(jobs)});
  };
  Captured c = build();
  // Configured once again from the folder's cache, then built again, when the build failed on
  // the build files rather than the code: a target they do not have yet (the manifest gained a
  // lesson or a wrong kernel after the folder was configured, `grader dev new`; gmake does not
  // configure again before it looks the target up), or CMake's own files damaged while the cache
  // that holds the preset's choices is there.
  std::error_code no_cache;
  const bool reconfigure = names_unknown_target(c.output) ||
                           (names_broken_build_folder(c.output) &&
                            fs::exists(fs::path(o.binary_dir) / "CMakeCache.txt", no_cache));
  if (c.exit_code != 0 && reconfigure &&
      run_capture({course::config::kCMake, o.binary_dir}).exit_code == 0)
    c = build();
  if (c.exit_code == 0) {
    if (!warnings) return true;
    const fs::path saved = runs_dir(o) / (target + ".warnings");
    if (compiled_student_file(c.output)) {
      *warnings = student_warnings(c.output, course::config::kSourceDir);
      course::write_text_atomically(saved.string(), *warnings);
    } else {
      *warnings = course::read_text(saved.string()).value_or("");
    }
    return true;
  }
  const fs::path full = fs::path(o.binary_dir) / "grader-runs" / (target + ".build.log");
  fs::create_directories(full.parent_path());
  std::ofstream(full) << c.output;
  log = compiler_errors(c.output) + fmt::format("(full build log: {})\n", full.string());
  // Read from the whole output: the lines that say what was compiled are not in `log`.
  if (folder_broken) *folder_broken = build_folder_broken(c.output);
  return false;
}

bool build_folder_broken(const std::string& build_output) {
  return names_broken_build_folder(build_output) && !compiled_student_file(build_output);
}

std::string build_failure_message(const std::string& target, const std::string& build_output,
                                  const std::string& binary_dir, bool folder_broken) {
  if (folder_broken) {
    const std::string preset = preset_of_build_folder(fs::path(binary_dir).filename().string());
    return fmt::format(
        "{} cannot be built: the build folder {} is damaged, or was made for another folder (your "
        "code is not at fault). Configure it again from the course folder with the preset that "
        "made it (cmake --preset {}, unless you chose another); if that fails too, delete {} and "
        "run the README's set-up command again. CMake said:",
        target, binary_dir, preset, binary_dir);
  }
  // Nothing was compiled: the target is not in the build files, even after build_target()
  // configured the folder again.
  if (names_unknown_target(build_output))
    return fmt::format(
        "{} is not a target of this build folder, even configured again: is its lesson \"ready\" "
        "in lessons/course.json, and is this a test configuration (cmake --preset test) for a "
        "variant? The build said:",
        target);
  if (build_output.find("course configure error:") != std::string::npos)
    return fmt::format("{} cannot be built: a file the lesson needs is missing, as the build says:",
                       target);
  if (build_output.find("ndefined reference") != std::string::npos)
    return fmt::format("{} did not link; the linker said:", target);
  return fmt::format("{} did not compile; the compiler said:", target);
}

}  // namespace driver
