// A class's roster (a CSV of students and their submissions) and the CSV both it and the gradebook
// are written in.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace driver {

/// A roster that cannot be read or is malformed (a usage error: the instructor's file).
struct RosterError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Splits CSV text (RFC 4180: fields separated by commas, quoted with "..." when they hold a
/// comma, a quote (doubled) or a line break; LF or CRLF line ends) into rows of fields. Blank
/// lines are skipped. @throws RosterError on an unterminated quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

/// One CSV field, quoted when it needs to be.
std::string csv_field(const std::string& value);

/// One CSV line (with its "\n") of `fields`.
std::string csv_line(const std::vector<std::string>& fields);

/// One student of the roster.
struct RosterEntry {
  std::string student;     ///< id: letters, digits, '.', '_', '-', '@'; names their folder
  std::string submission;  ///< absolute path: a folder holding exercises/, or a git repository
  std::string ref;         ///< "" = `submission` is a folder; else a git ref of that repository
};

/// Reads a roster: a header line naming the columns `student` and `submission` (and optionally
/// `ref`; other columns, such as a name or an e-mail, are ignored), then one line per student.
/// Relative submission paths are relative to the roster's folder.
/// @throws RosterError naming the file and line: unreadable, a missing column or field, a student
/// id that cannot name a folder, or a student listed twice.
std::vector<RosterEntry> read_roster(const std::string& path);

}  // namespace driver
