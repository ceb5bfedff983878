#include "devnew.hpp"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <vector>

#include "course/layout.hpp"
#include "course/manifest.hpp"
#include "course/manifest_edit.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

std::string replace_all(std::string s, const std::map<std::string, std::string>& vars) {
  for (const auto& [key, value] : vars)
    for (std::size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + value.size()))
      s.replace(at, key.size(), value);
  return s;
}

// "hello_threads" -> "Hello threads"
std::string title_of(const std::string& name) {
  std::string t = name;
  for (char& c : t)
    if (c == '_') c = ' ';
  if (!t.empty()) t[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(t[0])));
  return t;
}

}  // namespace

int dev_new(const std::string& id, const std::string& source_dir, const std::string& templates_dir,
            std::ostream& out) {
  const std::string name = id.size() > 3 ? id.substr(3) : "";
  if (!course::is_lesson_id(id) || !std::islower(static_cast<unsigned char>(name[0]))) {
    out << fmt::format(
        "grader dev new: '{}' is not a lesson id: two digits, '_', then a name that starts with a "
        "lower-case letter and holds lower-case letters, digits and '_' (e.g. 16_my_topic)\n",
        id);
    return course::kExitUsage;
  }
  // The name is the lesson's C++ namespace (and a short form on the command line): not a keyword,
  // not a namespace the course's code already uses.
  static const std::set<std::string> kTaken = {
      "alignas",  "alignof",  "and",      "asm",      "auto",     "bool",      "break",
      "case",     "catch",    "char",     "class",    "const",    "constexpr", "continue",
      "default",  "delete",   "do",       "double",   "else",     "enum",      "explicit",
      "export",   "extern",   "false",    "float",    "for",      "friend",    "goto",
      "if",       "inline",   "int",      "long",     "mutable",  "namespace", "new",
      "noexcept", "not",      "nullptr",  "operator", "or",       "private",   "protected",
      "public",   "register", "return",   "short",    "signed",   "sizeof",    "static",
      "struct",   "switch",   "template", "this",     "throw",    "true",      "try",
      "typedef",  "typeid",   "typename", "union",    "unsigned", "using",     "virtual",
      "void",     "volatile", "while",    "xor",      "bench",    "course",    "cub",
      "cuda",     "detail",   "driver",   "fmt",      "harness",  "nlohmann",  "quiz_pins",
      "std",      "testing",  "thrust"};
  if (kTaken.count(name)) {
    out << fmt::format(
        "grader dev new: the name '{}' cannot be a lesson's: it becomes the lesson's C++ "
        "namespace, and '{}' is a C++ keyword or a namespace the course already uses\n",
        name, name);
    return course::kExitUsage;
  }
  const fs::path src(source_dir), manifest_path = course::layout::manifest(src);
  for (const std::string top : course::layout::kLessonFolders)
    if (fs::exists(src / top / id)) {
      out << fmt::format("grader dev new: {}/{}/ already exists; nothing was written\n", top, id);
      return course::kExitUsage;
    }
  const std::optional<std::string> manifest_text = course::read_text(manifest_path.string());
  const std::optional<std::string> entry_template =
      course::read_text((fs::path(templates_dir) / "manifest_entry.json").string());
  if (!manifest_text || !entry_template) {
    out << fmt::format("grader dev new: cannot read {} or the templates in {}\n",
                       manifest_path.string(), templates_dir);
    return course::kExitInternal;
  }

  // A planned entry of the same id keeps its stage, title and summary.
  std::map<std::string, std::string> vars = {
      {"@ID@", id}, {"@NN@", id.substr(0, 2)}, {"@NAME@", name}, {"@TITLE@", title_of(name)}};
  int stage = 1;
  std::string summary = "TODO: one sentence for the course map.";
  try {
    const course::Manifest m = course::Manifest::parse(*manifest_text, manifest_path.string());
    for (const course::Lesson& l : m.lessons) {
      if (l.short_name() == name && l.id != id) {
        out << fmt::format(
            "grader dev new: lesson {} already has the name '{}' (its namespace and short "
            "form); choose another\n",
            l.id, name);
        return course::kExitUsage;
      }
      if (l.number() < std::stoi(id.substr(0, 2))) stage = l.stage;
      if (l.id == id) {
        stage = l.stage;
        vars["@TITLE@"] = l.title;
        if (!l.summary.empty()) summary = l.summary;
      }
    }
  } catch (const course::ManifestError& e) {
    out << "grader dev new: " << e.what() << "\n";
    return course::kExitInternal;
  }
  vars["@STAGE@"] = std::to_string(stage);
  vars["@TITLE_JSON@"] = nlohmann::json(vars["@TITLE@"]).dump();
  vars["@SUMMARY_JSON@"] = nlohmann::json(summary).dump();

  std::string manifest;
  try {
    manifest = course::put_lesson_entry(*manifest_text, replace_all(*entry_template, vars));
    const std::vector<std::string> problems =
        course::Manifest::parse(manifest, manifest_path.string()).problems();
    if (!problems.empty()) throw course::ManifestError(problems.front());
  } catch (const course::ManifestError& e) {
    out << "grader dev new: " << e.what() << "; nothing was written\n";
    return course::kExitUsage;
  }

  // Every template file but the manifest entry, placeholders replaced in path and text.
  std::vector<std::pair<fs::path, std::string>> files;
  for (const auto& f : fs::recursive_directory_iterator(templates_dir)) {
    if (!f.is_regular_file() || f.path().filename() == "manifest_entry.json") continue;
    const std::string rel = fs::relative(f.path(), templates_dir).generic_string();
    const std::optional<std::string> text = course::read_text(f.path().string());
    if (!text) {
      out << fmt::format("grader dev new: cannot read {}; nothing was written\n",
                         f.path().string());
      return course::kExitInternal;
    }
    files.emplace_back(src / replace_all(rel, vars), replace_all(*text, vars));
  }
  for (const auto& [path, text] : files) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec || !course::write_text_atomically(path.string(), text)) {
      out << fmt::format("grader dev new: cannot write {}\n", path.string());
      return course::kExitInternal;
    }
    out << fmt::format("wrote {}\n", fs::relative(path, src).generic_string());
  }
  if (!course::write_text_atomically(manifest_path.string(), manifest)) {
    out << fmt::format("grader dev new: cannot write {}\n", manifest_path.string());
    return course::kExitInternal;
  }
  out << fmt::format(
      "added {} to lessons/course.json (status ready, one step `copy`)\n\nNext: rebuild (the "
      "build re-reads the manifest), then check the skeleton: the solution must pass, the stub "
      "and the wrong kernel must fail:\n  cmake --build build-test && ./build-test/grader dev "
      "check --lesson {}\nThen make it your lesson: every TODO in lessons/{}/, the kernels, the "
      "hidden tests and the manifest entry (docs/INSTRUCTORS.md, \"Adding a lesson\").\n",
      id, id, id);
  return course::kExitOk;
}

}  // namespace driver
