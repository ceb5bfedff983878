#include "course/manifest_edit.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "course/manifest.hpp"

namespace course {

namespace {

// Where one element of the "lessons" array sits in the text: [begin, end) from its '{' to just
// past its '}'.
struct Span {
  std::size_t begin = 0, end = 0;
};

// The index just past the JSON value that starts at `at`. Strings are skipped with their escapes;
// a number, true, false or null ends at the next ',', '}', ']' or blank.
std::size_t end_of_value(const std::string& s, std::size_t at) {
  if (at < s.size() && s[at] != '"' && s[at] != '{' && s[at] != '[') {
    const std::size_t end = s.find_first_of(",}] \t\r\n", at);
    return end == std::string::npos ? s.size() : end;
  }
  int depth = 0;
  for (std::size_t i = at; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i)
        if (s[i] == '\\') ++i;
      if (depth == 0) return i + 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) return i + 1;
    }
  }
  throw ManifestError("the manifest text ends inside a value");
}

// The '[' of the top-level "lessons" array and the spans of its elements.
std::vector<Span> lesson_spans(const std::string& s, std::size_t& array_open) {
  // The key at depth 1: walk the top-level object's members.
  std::size_t i = s.find('{');
  if (i == std::string::npos) throw ManifestError("the manifest is not a JSON object");
  for (++i; i < s.size();) {
    const std::size_t key = s.find('"', i);
    if (key == std::string::npos) break;
    const std::size_t key_end = end_of_value(s, key);
    const std::string name = s.substr(key + 1, key_end - key - 2);
    const std::size_t value = s.find_first_not_of(" \t\r\n:", key_end);
    if (name == "lessons") {
      array_open = value;
      std::vector<Span> spans;
      for (std::size_t j = value + 1;;) {
        j = s.find_first_not_of(" \t\r\n,", j);
        if (j == std::string::npos || s[j] == ']') return spans;
        spans.push_back({j, end_of_value(s, j)});
        j = spans.back().end;
      }
    }
    i = end_of_value(s, value);
  }
  throw ManifestError("the manifest has no \"lessons\" array");
}

}  // namespace

std::string put_lesson_entry(const std::string& manifest, const std::string& entry_text) {
  std::string entry = entry_text;
  while (!entry.empty() && (entry.back() == '\n' || entry.back() == ' ')) entry.pop_back();
  nlohmann::json e;
  try {
    e = nlohmann::json::parse(entry);
  } catch (const nlohmann::json::parse_error& err) {
    throw ManifestError(fmt::format("the new lesson entry is not valid JSON: {}", err.what()));
  }
  const std::string id = e.value("id", "");
  const int number = std::stoi(id.substr(0, 2));
  std::size_t array_open = 0;
  const std::vector<Span> spans = lesson_spans(manifest, array_open);
  std::string out;
  for (const Span& sp : spans) {
    const nlohmann::json l = nlohmann::json::parse(manifest.substr(sp.begin, sp.end - sp.begin));
    const std::string lid = l.value("id", "");
    if (lid == id && l.value("status", "") != "planned")
      throw ManifestError(fmt::format("lesson {} already exists and is not planned", id));
    const std::size_t line = manifest.rfind('\n', sp.begin) + 1;  // the entry's indentation
    if (lid == id) {  // the planned entry becomes the new one
      out = manifest.substr(0, line) + entry + manifest.substr(sp.end);
      break;
    }
    if (lid.size() >= 2 && std::stoi(lid.substr(0, 2)) == number)
      throw ManifestError(fmt::format("lesson number {:02d} is taken by {}", number, lid));
    if (lid.size() >= 2 && std::stoi(lid.substr(0, 2)) > number) {  // goes before this one
      out = manifest.substr(0, line) + entry + ",\n" + manifest.substr(line);
      break;
    }
  }
  if (out.empty()) {  // after the last lesson (or into an empty array)
    const std::size_t at = spans.empty() ? array_open + 1 : spans.back().end;
    out = manifest.substr(0, at) + (spans.empty() ? "\n" : ",\n") + entry + manifest.substr(at);
  }
  const Manifest parsed = Manifest::parse(out, "the manifest with " + id);  // throws if broken
  if (!parsed.find(id)) throw ManifestError("internal error: " + id + " was not added");
  return out;
}

}  // namespace course
