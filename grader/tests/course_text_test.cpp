// Checks on the course's prose that need no GPU: WARMUP.md's footnotes and its table of which
// lessons cite which chapter, the measured records the text cites, and a few sentences that were
// wrong once (issue 22) and must not come back.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course/text_file.hpp"

namespace {

namespace fs = std::filesystem;

std::string source(const std::string& rel) {
  const auto text = course::read_text(std::string(COURSE_SOURCE_DIR) + "/" + rel);
  EXPECT_TRUE(text.has_value()) << rel << " cannot be read";
  return text.value_or("");
}

std::vector<std::string> lesson_readmes() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(fs::path(COURSE_SOURCE_DIR) / "lessons"))
    if (e.is_directory() && fs::exists(e.path() / "README.md"))
      out.push_back("lessons/" + e.path().filename().string() + "/README.md");
  return out;
}

// A footnote shown twice renders one text and drops the other: every `[^name]:` once, and every
// `[^name]` used has its definition.
TEST(CourseText, WarmupFootnotesAreDefinedOnceAndUsedDefined) {
  const std::string warmup = source("WARMUP.md");
  std::map<std::string, int> definitions;
  std::istringstream lines(warmup);
  std::string line;
  const std::regex definition(R"(^\[\^([A-Za-z0-9_-]+)\]:)");
  std::smatch m;
  while (std::getline(lines, line))
    if (std::regex_search(line, m, definition)) ++definitions[m[1]];
  for (const auto& [name, count] : definitions)
    EXPECT_EQ(count, 1) << "WARMUP.md defines the footnote [^" << name << "] " << count << " times";
  const std::regex use(R"(\[\^([A-Za-z0-9_-]+)\](?!:))");
  for (auto it = std::sregex_iterator(warmup.begin(), warmup.end(), use);
       it != std::sregex_iterator(); ++it)
    EXPECT_EQ(definitions.count((*it)[1]), 1u) << "WARMUP.md uses [^" << (*it)[1] << "] undefined";
}

// The "cited by" column of WARMUP's table of chapters lists every lesson whose README cites a
// section of that chapter (`§6.3`; `PROFILE.md` §N is the lab record's own numbering).
TEST(CourseText, WarmupTableListsEveryLessonThatCitesAChapter) {
  const std::string warmup = source("WARMUP.md");
  std::map<int, std::set<int>> listed;
  // The table opens the file and ends at its first rule (`---`). Its "cited by" cells hold
  // lessons ("02", "02-07") and other readers ("Lab 02"), comma-separated.
  const std::regex row(R"(^\| (?:\*\*)?(\d+) [^|]*\| [^|]*\| ([^|]*)\|$)");
  const std::regex item(R"(^\s*(\d\d)(?:-(\d\d))?\s*$)");
  std::istringstream lines(warmup);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line) && line != "---") {
    if (!std::regex_match(line, m, row)) continue;
    const int chapter = std::stoi(m[1]);
    std::istringstream cells(m[2].str());
    std::string cell;
    while (std::getline(cells, cell, ',')) {
      std::smatch r;
      if (!std::regex_match(cell, r, item)) continue;
      const int first = std::stoi(r[1]);
      const int last = r[2].matched ? std::stoi(r[2]) : first;
      for (int lesson = first; lesson <= last; ++lesson) listed[chapter].insert(lesson);
    }
  }
  ASSERT_GE(listed.size(), 10u) << "WARMUP.md's table of chapters was not found";
  const std::regex citation(R"((PROFILE\.md`?\s*)?§(\d+)\.\d+)");
  for (const std::string& readme : lesson_readmes()) {
    const int lesson = std::stoi(readme.substr(std::string("lessons/").size(), 2));
    const std::string text = source(readme);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), citation);
         it != std::sregex_iterator(); ++it) {
      if ((*it)[1].matched) continue;
      const int chapter = std::stoi((*it)[2]);
      EXPECT_TRUE(listed[chapter].count(lesson))
          << readme << " cites WARMUP §" << chapter << ".x, but WARMUP.md's table does not list "
          << "lesson " << lesson << " under chapter " << chapter;
    }
  }
}

// Every docs/measured/NAME.md that the text cites exists.
TEST(CourseText, CitedMeasuredRecordsExist) {
  std::vector<std::string> files = lesson_readmes();
  files.push_back("WARMUP.md");
  const std::regex record(R"(docs/measured/([A-Za-z0-9_]+\.md))");
  for (const std::string& f : files) {
    const std::string text = source(f);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), record);
         it != std::sregex_iterator(); ++it)
      EXPECT_TRUE(fs::exists(fs::path(COURSE_SOURCE_DIR) / "docs/measured" / (*it)[1].str()))
          << f << " cites docs/measured/" << (*it)[1] << ", which does not exist";
  }
}

// Sentences that contradicted the measurements (issue 22). Each pair: file, text that must not
// appear in it again.
TEST(CourseText, CorrectedClaimsStayCorrected) {
  const std::vector<std::pair<std::string, std::string>> gone = {
      // 100 threads = 3 full warps + 4 lanes: the last warp is 28/32 empty.
      {"lessons/03_grid_stride/README.md", "three-quarters empty"},
      // nvcc 13.0's SASS keeps each load of y after the previous store (docs/measured/compiler.md).
      {"lessons/03_grid_stride/README.md",
       "which lets it issue the loads of later iterations early"},
      // The solution measured 99% of CUB.
      {"solutions/05_warps/warps.cu", "Still short of CUB"},
      // One load per thread is not enough on an H200 (WARMUP §8.4); the loop keeps four in flight.
      {"lessons/05_warps/README.md", "each with a load in flight, the loop keeps enough bytes"},
      // The H200 returned cudaErrorInvalidValue for a grid of 0 blocks (H200.md, lesson 02).
      {"lessons/course.json", "a grid of 0 blocks, cudaErrorInvalidConfiguration"},
      // [36] ran with 16-byte loads and ~2 extra wavefronts per load, not the model's 4-way.
      {"lessons/08_bank_conflicts/README.md", "rows padded to 32 bytes are a 4-way conflict |"},
      {"WARMUP.md", "lesson 08 checks it by timing"},
      // 8192 x 8184 floats in and out are 3.996 x 128 MiB.
      {"lessons/04_matrix_2d/README.md",
       "so that input and output are at\nleast four times the L2"},
      // 12 bytes per element are 8 read and 4 written.
      {"WARMUP.md", "it reads 12 bytes of DRAM"},
  };
  for (const auto& [file, text] : gone)
    EXPECT_EQ(source(file).find(text), std::string::npos) << file << " again says: " << text;
}

}  // namespace
