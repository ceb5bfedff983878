#include "checkout.hpp"

#include <filesystem>

#include <fmt/format.h>

namespace driver {

namespace fs = std::filesystem;

namespace {

fs::path resolved(const std::string& p) {
  std::error_code ec;
  const fs::path r = fs::weakly_canonical(p, ec);
  return ec ? fs::path(p).lexically_normal() : r;
}

bool inside(const fs::path& path, const fs::path& folder) {
  const fs::path rel = path.lexically_relative(folder);
  return !rel.empty() && *rel.begin() != "..";
}

}  // namespace

std::string preset_of_build_folder(const std::string& folder) {
  if (folder == "build-solutions") return "solutions";
  if (folder == "build-test") return "test";
  return "exercises";
}

CheckoutProblem checkout_problem(const std::string& executable, const std::string& binary_dir,
                                 const std::string& source_dir, bool manifest_found,
                                 bool in_a_checkout) {
  if (executable.empty()) return {};
  const fs::path exe = resolved(executable);
  if (inside(exe, resolved(binary_dir))) return {};
  const std::string gone = fmt::format(
      "this grader was built for the course in {}, which is not there any more (was the course "
      "folder moved or renamed?)",
      source_dir);
  if (!in_a_checkout) {  // a copy of the executable alone (~/bin): it works on its course
    if (manifest_found) return {};
    return {gone +
                ". Run the grader of the course's own build folder, or build one there with "
                "the README's set-up command",
            true};
  }
  const fs::path build = exe.parent_path();
  const std::string folder = build.filename().string();
  const std::string preset = preset_of_build_folder(folder);
  // Students need the grader alone; the instructors' folders build everything (grader-instructor).
  const std::string fix = fmt::format(
      "cd {} && rm -rf {} && cmake --preset {} && cmake --build "
      "--preset {}{}",
      build.parent_path().string(), folder, preset, preset,
      preset == "exercises" ? " --target grader" : "");
  if (!manifest_found)
    return {gone + fmt::format(". A build folder cannot move with its course: build the grader "
                               "again where the course is now (with the preset you made it "
                               "with, if not {}):\n  {}",
                               preset, fix),
            true};
  return {fmt::format("note: this grader was built in {} and works on the course in {}, not on "
                      "the copy it runs from ({}): your edits there are not what it grades. To "
                      "grade that copy, build a grader for it:\n  {}",
                      binary_dir, source_dir, build.parent_path().string(), fix),
          false};
}

bool in_a_checkout(const std::string& executable) {
  std::error_code ec;
  const fs::path build = resolved(executable).parent_path();
  return fs::exists(build / "CMakeCache.txt", ec) &&
         fs::exists(build.parent_path() / "lessons" / "course.json", ec);
}

}  // namespace driver
