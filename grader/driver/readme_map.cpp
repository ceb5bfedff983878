#include "readme_map.hpp"

#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "course/layout.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

// Table cells may not hold a '|' or a line break.
std::string markdown_cell(std::string text) {
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

// The document with its exit-code block regenerated; no value when it has no block.
std::optional<std::string> with_exit_codes(std::string doc) {
  if (!course::replace_marked_block(doc, kExitCodesBlock, course::exit_codes_markdown()))
    return std::nullopt;
  return doc;
}

// "README.md has no course map block (<!-- course-map:begin --> ... <!-- course-map:end -->)".
std::string no_block(const std::string& path, const char* id, const char* what) {
  return fmt::format("{} has no {} block (<!-- {}:begin --> ... <!-- {}:end -->)", path, what, id,
                     id);
}

}  // namespace

std::string course_map_markdown(const course::Manifest& manifest, const std::string& source_dir) {
  std::string out =
      "| lesson | what it teaches | time | status |\n"
      "| --- | --- | --- | --- |\n";
  for (const course::Lesson& l : manifest.lessons) {
    const std::string name = fmt::format("{:02d} {}", l.number(), markdown_cell(l.title));
    std::string lesson = name, teaches = markdown_cell(l.summary);
    if (l.ready())
      lesson = fmt::format("[{}]({})", name, course::layout::readme("", l.id).generic_string());
    // The command, never the file: quiz.json holds the answers.
    if (l.ready() && fs::exists(course::layout::quiz(source_dir, l.id)))
      teaches += fmt::format(" · self-check: `./build/grader quiz {:02d}`", l.number());
    const std::string time = l.minutes > 0 ? fmt::format("{} min", l.minutes) : "";
    out += fmt::format("| {} | {} | {} | {} |\n", lesson, teaches, time, markdown_cell(l.status));
  }
  return out;
}

std::vector<std::string> readme_problems(const course::Manifest& manifest,
                                         const std::string& source_dir,
                                         const std::string& readme_path) {
  const std::optional<std::string> readme = course::read_text(readme_path);
  if (!readme) return {fmt::format("{} cannot be read", readme_path)};
  const std::optional<std::string> fresh = regenerated(manifest, source_dir, *readme);
  if (!fresh) return {no_block(readme_path, kCourseMapBlock, "course map")};
  std::vector<std::string> problems;
  if (*fresh != *readme)
    problems.push_back(
        fmt::format("the course map in {} is stale: run `grader dev readme --write {}`",
                    readme_path, readme_path));
  std::vector<std::string> codes = exit_code_table_problems(readme_path);
  problems.insert(problems.end(), codes.begin(), codes.end());
  return problems;
}

std::vector<std::string> exit_code_table_problems(const std::string& path) {
  const std::optional<std::string> doc = course::read_text(path);
  if (!doc) return {fmt::format("{} cannot be read", path)};
  const std::optional<std::string> fresh = with_exit_codes(*doc);
  if (!fresh) return {no_block(path, kExitCodesBlock, "exit-codes")};
  if (*fresh == *doc) return {};
  return {fmt::format("the exit-code table in {} is stale: run `grader dev readme --write {}`",
                      path, path)};
}

std::string write_readme_course_map(const course::Manifest& manifest, const std::string& source_dir,
                                    const std::string& path) {
  const std::optional<std::string> doc = course::read_text(path);
  if (!doc) return fmt::format("{} cannot be read", path);
  std::string fresh = *doc;
  bool any = false;
  if (std::optional<std::string> d = regenerated(manifest, source_dir, fresh)) {
    fresh = *d;
    any = true;
  }
  if (std::optional<std::string> d = with_exit_codes(fresh)) {
    fresh = *d;
    any = true;
  }
  if (!any)
    return fmt::format(
        "{} has neither a {} nor an {} block (<!-- ID:begin --> ... <!-- ID:end -->)", path,
        kCourseMapBlock, kExitCodesBlock);
  if (!course::write_text_atomically(path, fresh)) return fmt::format("{} cannot be written", path);
  return "";
}

}  // namespace driver
