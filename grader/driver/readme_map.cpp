#include "readme_map.hpp"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "course/text_file.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

// Table cells may not hold a '|' or a line break.
std::string cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c == '\n' ? ' ' : c;
  }
  return out;
}

// The README with its course-map block regenerated; no value when it has no block.
std::optional<std::string> regenerated(const course::Manifest& manifest,
                                       const std::string& source_dir, std::string readme) {
  if (!course::replace_marked_block(readme, kCourseMapBlock,
                                    course_map_markdown(manifest, source_dir)))
    return std::nullopt;
  return readme;
}

std::string no_block(const std::string& readme_path) {
  return fmt::format("{} has no course map block (<!-- {}:begin --> ... <!-- {}:end -->)",
                     readme_path, kCourseMapBlock, kCourseMapBlock);
}

}  // namespace

std::string course_map_markdown(const course::Manifest& manifest, const std::string& source_dir) {
  std::string out =
      "| lesson | what it teaches | time | status |\n"
      "| --- | --- | --- | --- |\n";
  for (const course::Lesson& l : manifest.lessons) {
    const std::string name = fmt::format("{:02d} {}", l.number(), cell(l.title));
    const std::string dir = "lessons/" + l.id;
    std::string lesson = name, teaches = cell(l.summary);
    if (l.ready()) lesson = fmt::format("[{}]({}/README.md)", name, dir);
    // The command, never the file: quiz.json holds the answers.
    if (l.ready() && fs::exists(fs::path(source_dir) / dir / "quiz.json"))
      teaches += fmt::format(" · self-check: `./build/grader quiz {:02d}`", l.number());
    const std::string time = l.minutes > 0 ? fmt::format("{} min", l.minutes) : "";
    out += fmt::format("| {} | {} | {} | {} |\n", lesson, teaches, time, cell(l.status));
  }
  return out;
}

std::vector<std::string> readme_problems(const course::Manifest& manifest,
                                         const std::string& source_dir,
                                         const std::string& readme_path) {
  const std::optional<std::string> readme = course::read_text(readme_path);
  if (!readme) return {fmt::format("{} cannot be read", readme_path)};
  const std::optional<std::string> fresh = regenerated(manifest, source_dir, *readme);
  if (!fresh) return {no_block(readme_path)};
  if (*fresh == *readme) return {};
  return {fmt::format("the course map in {} is stale: run `grader dev readme --write {}`",
                      readme_path, readme_path)};
}

std::string write_readme_course_map(const course::Manifest& manifest, const std::string& source_dir,
                                    const std::string& readme_path) {
  const std::optional<std::string> readme = course::read_text(readme_path);
  if (!readme) return fmt::format("{} cannot be read", readme_path);
  const std::optional<std::string> fresh = regenerated(manifest, source_dir, *readme);
  if (!fresh) return no_block(readme_path);
  if (!course::write_text_atomically(readme_path, *fresh))
    return fmt::format("{} cannot be written", readme_path);
  return "";
}

}  // namespace driver
