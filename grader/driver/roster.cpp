#include "roster.hpp"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "course/text_file.hpp"

namespace driver {

namespace fs = std::filesystem;

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  auto end_row = [&] {
    row.push_back(field);
    if (any || row.size() > 1 || !row.front().empty()) rows.push_back(row);
    row.clear();
    field.clear();
    any = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') {
        field += c;
      } else if (i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      any = true;
    } else if (c == '\n') {
      end_row();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (quoted) throw RosterError("a quoted field is not closed");
  if (!field.empty() || !row.empty() || any) end_row();
  return rows;
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  return line + "\n";
}

std::vector<RosterEntry> read_roster(const std::string& path) {
  const std::optional<std::string> text = course::read_text(path);
  if (!text) throw RosterError(fmt::format("cannot read the roster {}", path));
  std::vector<std::vector<std::string>> rows;
  try {
    rows = parse_csv(*text);
  } catch (const RosterError& e) {
    throw RosterError(fmt::format("{}: {}", path, e.what()));
  }
  if (rows.empty()) throw RosterError(fmt::format("{} is empty: it needs a header line", path));
  auto column = [&](const std::string& name) {
    const auto& header = rows.front();
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
  };
  const int student = column("student"), submission = column("submission"), ref = column("ref");
  if (student < 0 || submission < 0)
    throw RosterError(fmt::format(
        "{}: the header line must name the columns student and submission (and optionally ref), "
        "e.g. `student,submission,ref`",
        path));
  static const std::regex id("[A-Za-z0-9][A-Za-z0-9._@-]{0,99}");
  const fs::path base = fs::absolute(fs::path(path)).parent_path();
  std::vector<RosterEntry> entries;
  std::set<std::string> seen;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& r = rows[i];
    auto at = [&](int c) { return c >= 0 && c < static_cast<int>(r.size()) ? r[c] : ""; };
    RosterEntry e{at(student), at(submission), at(ref)};
    const std::string where = fmt::format("{}, line {}", path, i + 1);
    if (!std::regex_match(e.student, id))
      throw RosterError(fmt::format(
          "{}: student '{}' cannot name a folder: use letters, digits, '.', '_', '-' and '@', "
          "starting with a letter or digit",
          where, e.student));
    if (!seen.insert(e.student).second)
      throw RosterError(fmt::format("{}: student {} is listed twice", where, e.student));
    if (e.submission.empty())
      throw RosterError(fmt::format("{}: student {} has no submission", where, e.student));
    e.submission = (base / e.submission).lexically_normal().string();
    entries.push_back(e);
  }
  return entries;
}

}  // namespace driver
