// `grader dev new`: the skeleton it writes (from grader/templates/lesson/) and the manifest edit
// that keeps the file's layout, on a scratch copy of the course's manifest.
#include "devnew.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "course/manifest.hpp"
#include "course/manifest_edit.hpp"
#include "course/text_file.hpp"
#include "quiz_fixture.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = COURSE_SOURCE_DIR;
const fs::path kTemplates = kSource / "grader" / "templates" / "lesson";

// A scratch source tree holding only the real manifest.
fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("devnew_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "lessons");
  fs::copy_file(kSource / "lessons" / "course.json", dir / "lessons" / "course.json");
  return dir;
}

std::string read(const fs::path& p) {
  return course::read_text(p.string()).value_or("");
}

TEST(DevNew, WritesASkeletonAndAReadyManifestEntry) {
  const fs::path dir = scratch("skeleton");
  std::ostringstream out;
  ASSERT_EQ(driver::dev_new("99_example", dir.string(), kTemplates.string(), out), 0) << out.str();
  for (const char* f : {"lessons/99_example/example.cuh", "lessons/99_example/launch.cu",
                        "lessons/99_example/README.md", "lessons/99_example/quiz.json",
                        "lessons/99_example/quiz_test.cpp", "exercises/99_example/example.cu",
                        "solutions/99_example/example.cu", "grader/lessons/99_example/tests.cu",
                        "grader/lessons/99_example/wrong/no_bounds_check.cu"}) {
    SCOPED_TRACE(f);
    const std::string text = read(dir / f);
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.find('@' + std::string("ID@")), std::string::npos);
    EXPECT_EQ(text.find("@NAME@"), std::string::npos);
  }
  EXPECT_NE(read(dir / "grader/lessons/99_example/tests.cu").find("using example::Step"),
            std::string::npos);
  const course::Manifest m = course::Manifest::load((dir / "lessons/course.json").string());
  const course::Lesson* l = m.find("99_example");
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->ready());
  ASSERT_EQ(l->steps.size(), 1u);
  EXPECT_EQ(l->steps[0].name, "copy");
  EXPECT_EQ(l->steps[0].ceiling.kernel, "copy_rung");
  EXPECT_TRUE(m.problems().empty());
  EXPECT_EQ(m.lessons.back().id, "99_example");  // after every other lesson
  fs::remove_all(dir);
}

TEST(DevNew, KeepsTheRestOfTheManifestAsWritten) {
  const fs::path dir = scratch("layout");
  const std::string before = read(dir / "lessons/course.json");
  std::ostringstream out;
  ASSERT_EQ(driver::dev_new("99_example", dir.string(), kTemplates.string(), out), 0);
  const std::string after = read(dir / "lessons/course.json");
  // Everything before the new entry is byte for byte what it was.
  const std::size_t at = after.find("\"id\": \"99_example\"");
  ASSERT_NE(at, std::string::npos);
  const std::size_t entry_line = after.rfind('\n', after.rfind('{', at));
  EXPECT_EQ(after.substr(0, entry_line - 1), before.substr(0, entry_line - 1));
  fs::remove_all(dir);
}

// A planned lesson at the end of the scratch manifest: the course may have none left (all 15
// ready), and a course that adds one later starts from exactly such an entry.
void add_planned_lesson(const fs::path& dir) {
  const fs::path path = dir / "lessons" / "course.json";
  nlohmann::json j = nlohmann::json::parse(read(path));
  const course::Lesson p = test_fixture::planned_lesson();
  j["lessons"].push_back({{"id", p.id},
                          {"stage", p.stage},
                          {"status", p.status},
                          {"title", p.title},
                          {"summary", p.summary}});
  std::ofstream(path) << j.dump(2) << "\n";
}

TEST(DevNew, ReplacesAPlannedEntryKeepingItsTitle) {
  const fs::path dir = scratch("planned");
  add_planned_lesson(dir);
  course::Manifest m = course::Manifest::load((dir / "lessons/course.json").string());
  const course::Lesson* planned = nullptr;
  for (const course::Lesson& l : m.lessons)
    if (!l.ready()) planned = &l;
  ASSERT_NE(planned, nullptr);
  std::ostringstream out;
  ASSERT_EQ(driver::dev_new(planned->id, dir.string(), kTemplates.string(), out), 0) << out.str();
  const course::Manifest after = course::Manifest::load((dir / "lessons/course.json").string());
  ASSERT_NE(after.find(planned->id), nullptr);
  EXPECT_TRUE(after.find(planned->id)->ready());
  EXPECT_EQ(after.find(planned->id)->title, planned->title);
  EXPECT_EQ(after.lessons.size(), m.lessons.size());  // replaced, not added
  fs::remove_all(dir);
}

TEST(DevNew, RefusesBadIdsExistingFoldersAndReadyLessons) {
  const fs::path dir = scratch("refuse");
  const std::string before = read(dir / "lessons/course.json");
  std::ostringstream out;
  EXPECT_EQ(driver::dev_new("example", dir.string(), kTemplates.string(), out), 2);
  EXPECT_EQ(driver::dev_new("99_Example", dir.string(), kTemplates.string(), out), 2);
  EXPECT_EQ(driver::dev_new("99_1st", dir.string(), kTemplates.string(), out), 2);
  // The name becomes a C++ namespace: no keyword, no namespace the course uses, no name another
  // lesson has (e.g. "transpose" for 07_transpose).
  EXPECT_EQ(driver::dev_new("99_class", dir.string(), kTemplates.string(), out), 2);
  EXPECT_EQ(driver::dev_new("99_harness", dir.string(), kTemplates.string(), out), 2);
  EXPECT_NE(out.str().find("C++ keyword or a namespace"), std::string::npos) << out.str();
  fs::create_directories(dir / "solutions" / "99_example");
  EXPECT_EQ(driver::dev_new("99_example", dir.string(), kTemplates.string(), out), 2);
  EXPECT_NE(out.str().find("solutions/99_example/ already exists"), std::string::npos) << out.str();
  fs::remove_all(dir / "solutions");
  // A lesson that is ready, and a number another lesson has.
  const course::Manifest m = course::Manifest::parse(before, "course.json");
  for (const course::Lesson& l : m.lessons) {
    if (!l.ready()) continue;
    EXPECT_EQ(driver::dev_new("98_" + l.short_name(), dir.string(), kTemplates.string(), out), 2);
    EXPECT_NE(out.str().find("already has the name"), std::string::npos) << out.str();
    EXPECT_EQ(driver::dev_new(l.id, dir.string(), kTemplates.string(), out), 2);
    EXPECT_EQ(
        driver::dev_new(l.id.substr(0, 3) + "other_name", dir.string(), kTemplates.string(), out),
        2);
    break;
  }
  EXPECT_EQ(read(dir / "lessons/course.json"), before);  // nothing written
  EXPECT_FALSE(fs::exists(dir / "exercises"));
  fs::remove_all(dir);
}

TEST(ManifestEdit, InsertsInNumberOrder) {
  const std::string text = R"({
  "schema": 1, "course": "c", "version": "1", "stages": [ { "number": 1, "title": "s" } ],
  "lessons": [
    { "id": "01_a", "stage": 1, "status": "planned", "title": "A" },
    { "id": "05_e", "stage": 1, "status": "planned", "title": "E" }
  ]
})";
  const std::string entry =
      R"(    { "id": "03_c", "stage": 1, "status": "planned", "title": "C" })";
  const course::Manifest m = course::Manifest::parse(course::put_lesson_entry(text, entry), "t");
  ASSERT_EQ(m.lessons.size(), 3u);
  EXPECT_EQ(m.lessons[1].id, "03_c");
  // A planned entry of the same id is replaced; "ready" ones and taken numbers are refused.
  const std::string again =
      R"(    { "id": "05_e", "stage": 1, "status": "planned", "title": "E2" })";
  EXPECT_EQ(course::Manifest::parse(course::put_lesson_entry(text, again), "t").find("05_e")->title,
            "E2");
  EXPECT_THROW(course::put_lesson_entry(
                   text, R"({ "id": "05_x", "stage": 1, "status": "planned", "title": "X" })"),
               course::ManifestError);
  EXPECT_THROW(course::put_lesson_entry(text, "{ not json"), course::ManifestError);
}

}  // namespace
