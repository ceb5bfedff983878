// A class's gradebook, assembled from its students' rows (OUT/students/<id>/row.json): CSV and
// JSON, one row per student of the roster, and a summary an instructor reads first.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "class_setup.hpp"
#include "course/manifest.hpp"

namespace driver {

/// What `collect_gradebook` made.
struct Gradebook {
  nlohmann::json json;  ///< gradebook.json
  std::string csv;      ///< gradebook.csv
  std::string summary;  ///< summary.md
  int missing = 0;      ///< roster rows without a current result
};

/// Assembles the gradebook of the class in `dir` and writes gradebook.csv, gradebook.json and
/// summary.md there. Every roster row is present: a student without a current row.json gets a
/// not-graded row whose "why" is `why_missing[student]` (what the engine knows: a time limit, a
/// crash) or "no result yet". The CSV: student, status, score, max_score, one column per step
/// ("<lesson>.<step>": 1 passed, 0 failed or did not compile, empty when not graded), why,
/// seed_fingerprint, ignored_files, tampered_files, ref and commit (a git submission's ref and
/// the commit it resolved to when graded).
/// @throws ClassError when the class folder or roster cannot be read.
Gradebook collect_gradebook(const ClassDir& dir, const course::Manifest& manifest,
                            const std::map<std::string, std::string>& why_missing);

/// The part of a failed step's reason that the class summary shows (summary.md, "Steps the class
/// fails most"): its first line without the test case's description ("ids_1d on 2 blocks of 64
/// threads, seed 7: ") and without the one element a mismatch names ("; first mismatch at ...,
/// got G"), the lesson's advice after it kept; cut at a word within 120 characters ("..." marks
/// a cut); '|' and control characters replaced so that it stays one Markdown table cell.
std::string diagnosis_headline(const std::string& reason);

/// The key the summary groups headlines by: the headline with every figure ("3", "1,234", "25.3")
/// as "#", so that "3 of 8 elements wrong" and "1 of 1 elements wrong" are one mistake.
std::string diagnosis_group(const std::string& headline);

}  // namespace driver
