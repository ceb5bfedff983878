// What `grader dev check` verifies without a GPU besides the manifest and the layout: quizzes
// (valid, every written answer pinned), hints (three distinct tiers) and the README's course map
// (generated from the manifest). The real course must pass all three.
#include "course_checks.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "course/report.hpp"
#include "course/text_file.hpp"
#include "devcheck.hpp"
#include "quiz_fixture.hpp"
#include "readme_map.hpp"
#include "test_dir.hpp"

namespace {

namespace fs = std::filesystem;
using test_fixture::contains;

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

TEST(CourseChecks, TheRealCoursePasses) {
  const course::Manifest m = test_fixture::manifest();
  EXPECT_EQ(joined(driver::quiz_problems(m, COURSE_SOURCE_DIR)), "");
  EXPECT_EQ(joined(driver::hint_problems(m)), "");
}

// The README's course map is the manifest's: edit lessons/course.json, then run
// `grader dev readme --write README.md`.
TEST(CourseChecks, TheReadmesCourseMapIsCurrent) {
  EXPECT_EQ(joined(driver::readme_problems(test_fixture::manifest(), COURSE_SOURCE_DIR,
                                           COURSE_SOURCE_DIR "/README.md")),
            "");
}

TEST(CourseChecks, PinsAreFoundByTheirText) {
  const auto pins = driver::pinned_question_ids(R"(
QUIZ_CHOICE("a-choice", q) { return 0; }
QUIZ_NUMERIC( "a-number" ) { return 1; }
// QUIZ_NUMERIC("commented-out") { return 2; }
static double helper();  // QUIZ_CHOICE("after-code", q)
)");
  EXPECT_EQ(pins,
            (std::map<std::string, std::string>{{"a-choice", "choice"}, {"a-number", "numeric"}}));
}

class CourseChecksOnACopy : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = test_fixture::fresh_test_dir("checks");
    fs::create_directories(root_ / "lessons" / "42_answer");
    course::Lesson l;
    l.id = "42_answer";
    l.title = "The answer";
    l.summary = "Everything | more";
    l.status = "ready";
    course::Step step;
    step.name = "only";
    step.hints = {"Nudge.", "Idea.", "Change."};
    l.steps.push_back(step);
    manifest_.lessons.push_back(l);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const std::string& rel, const std::string& text) {
    std::ofstream(root_ / rel) << text;
  }
  std::string problems() { return joined(driver::quiz_problems(manifest_, root_.string())); }

  fs::path root_;
  course::Manifest manifest_;
};

TEST_F(CourseChecksOnACopy, QuizzesMustExistParseAndBePinned) {
  EXPECT_TRUE(contains(problems(), "lessons/42_answer/quiz.json (the self-check quiz) is missing"));
  write("lessons/42_answer/quiz.json", test_fixture::quiz_text(R"(
      {"id": "pick", "kind": "choice", "prompt": "P", "choices": ["x", "x"], "answer": "e",
       "explain": "E"})",
                                                               "42_answer"));
  EXPECT_TRUE(contains(problems(), "choice \"x\" appears twice")) << problems();
  EXPECT_TRUE(contains(problems(), "\"answer\" must be the letter of a choice")) << problems();
  write("lessons/42_answer/quiz.json", test_fixture::quiz_text(R"(
      {"id": "pick", "kind": "choice", "prompt": "P", "choices": ["x", "y"], "answer": "b",
       "explain": "E"},
      {"id": "count", "kind": "numeric", "prompt": "P", "answer": 3, "explain": "E"})",
                                                               "42_answer"));
  EXPECT_TRUE(contains(problems(), "choice question \"pick\" has no pin")) << problems();
  EXPECT_TRUE(contains(problems(), "numeric question \"count\" has no pin")) << problems();
  write("lessons/42_answer/quiz_test.cpp",
        "QUIZ_CHOICE(\"pick\", q) { return 1; }\nQUIZ_CHOICE(\"count\", q) { return 0; }\n"
        "QUIZ_NUMERIC(\"gone\") { return 0; }\n");
  EXPECT_TRUE(contains(problems(), "pins numeric question \"count\" as choice")) << problems();
  EXPECT_TRUE(contains(problems(), "pins \"gone\", which is no choice or numeric question"))
      << problems();
  EXPECT_FALSE(contains(problems(), "\"pick\"")) << problems();
  write("lessons/42_answer/quiz_test.cpp",
        "QUIZ_CHOICE(\"pick\", q) { return 1; }\nQUIZ_NUMERIC(\"count\") { return 3; }\n");
  EXPECT_EQ(problems(), "");
}

TEST_F(CourseChecksOnACopy, HintsNeedThreeDistinctTiers) {
  EXPECT_EQ(joined(driver::hint_problems(manifest_)), "");
  manifest_.lessons[0].steps[0].hints = {"Nudge.", " nudge. ", ""};
  const std::string p = joined(driver::hint_problems(manifest_));
  EXPECT_TRUE(contains(p, "42_answer.only: hint tier 2 repeats an earlier tier")) << p;
  EXPECT_TRUE(contains(p, "42_answer.only: hint tier 3 is empty")) << p;
  manifest_.lessons[0].steps[0].hints = {"Nudge.", "Idea."};
  EXPECT_TRUE(contains(joined(driver::hint_problems(manifest_)), "2 hint tiers; a step needs 3"));
  manifest_.lessons[0].status = "planned";  // planned lessons need no hints yet
  EXPECT_EQ(joined(driver::hint_problems(manifest_)), "");
}

TEST_F(CourseChecksOnACopy, AStaleCourseMapIsFoundAndRewritten) {
  const std::string readme = (root_ / "README.md").string();
  write("README.md", "# Course\n\nNo map here.\n");
  EXPECT_TRUE(contains(joined(driver::readme_problems(manifest_, root_.string(), readme)),
                       "has no course map block"));
  EXPECT_TRUE(contains(driver::write_readme_course_map(manifest_, root_.string(), readme),
                       "has neither a course-map nor an exit-codes block"));
  write("README.md",
        "# Course\n\n<!-- course-map:begin -->\n| old |\n<!-- course-map:end -->\n\nAfter.\n\n"
        "<!-- exit-codes:begin -->\n<!-- exit-codes:end -->\n");
  EXPECT_TRUE(contains(joined(driver::readme_problems(manifest_, root_.string(), readme)),
                       "is stale: run `grader dev readme --write"));
  EXPECT_EQ(driver::write_readme_course_map(manifest_, root_.string(), readme), "");
  EXPECT_EQ(joined(driver::readme_problems(manifest_, root_.string(), readme)), "");
  const std::string text = course::read_text(readme).value_or("");
  EXPECT_TRUE(contains(text,
                       "| [42 The answer](lessons/42_answer/README.md) | Everything \\| "
                       "more |  | ready |\n<!-- course-map:end -->\n\nAfter.\n"))
      << text;
  EXPECT_TRUE(contains(text, "<!-- exit-codes:begin -->\n" + course::exit_codes_markdown() +
                                 "<!-- exit-codes:end -->\n"))
      << text;
  write("lessons/42_answer/quiz.json", "{}");
  EXPECT_TRUE(contains(joined(driver::readme_problems(manifest_, root_.string(), readme)),
                       "is stale"));  // now it has a quiz to name
}

// Issue 23, item 5: the exit-code table was written three times (README, INSTRUCTORS, --help) and
// the copies differed. One source now: a stale copy is found, a quoted marker in prose is not a
// block, and the help text is the same table.
TEST_F(CourseChecksOnACopy, TheExitCodeTableHasOneSource) {
  const std::string doc = (root_ / "INSTRUCTORS.md").string();
  write("INSTRUCTORS.md",
        "Prose that quotes `<!-- course-map:begin -->` and `<!-- exit-codes:begin -->`.\n\n"
        "<!-- exit-codes:begin -->\n| code | meaning |\n| 0 | old words |\n"
        "<!-- exit-codes:end -->\n");
  EXPECT_TRUE(contains(joined(driver::exit_code_table_problems(doc)), "is stale")) << doc;
  EXPECT_EQ(driver::write_readme_course_map(manifest_, root_.string(), doc), "");
  EXPECT_EQ(joined(driver::exit_code_table_problems(doc)), "");
  const std::string text = course::read_text(doc).value_or("");
  EXPECT_TRUE(contains(text,
                       "Prose that quotes `<!-- course-map:begin -->` and "
                       "`<!-- exit-codes:begin -->`.\n\n<!-- exit-codes:begin -->\n| code |"))
      << text;  // the quoted markers untouched, no course map written into the prose
  EXPECT_FALSE(contains(text, "42 The answer")) << text;
  write("INSTRUCTORS.md", "No table.\n");
  EXPECT_TRUE(contains(joined(driver::exit_code_table_problems(doc)), "has no exit-codes block"));

  const std::string help = course::exit_codes_text();
  for (const course::ExitCodeMeaning& e : course::exit_code_meanings())
    EXPECT_TRUE(contains(help, fmt::format("  {}  ", static_cast<int>(e.code)))) << help;
  std::size_t longest = 0, at = 0;
  for (std::size_t next; (next = help.find('\n', at)) != std::string::npos; at = next + 1)
    longest = std::max(longest, next - at);
  EXPECT_LE(longest, 79u) << help;
  EXPECT_FALSE(contains(help, "`")) << help;
}

// Issue 22, item 9: the map linked each quiz.json, answers included; it names the command now.
// Item 12: and it shows the lesson's time, from the manifest.
TEST_F(CourseChecksOnACopy, TheMapNamesTheQuizCommandNotTheFileAndShowsTheTime) {
  write("lessons/42_answer/quiz.json", "{}");
  manifest_.lessons.back().minutes = 35;
  const std::string map = driver::course_map_markdown(manifest_, root_.string());
  EXPECT_FALSE(contains(map, "quiz.json")) << map;
  EXPECT_TRUE(contains(map,
                       "| [42 The answer](lessons/42_answer/README.md) | Everything \\| more "
                       "· self-check: `./build/grader quiz 42` | 35 min | ready |"))
      << map;
}

// Item 12: the time the map shows is the one the lesson's text states.
TEST_F(CourseChecksOnACopy, TheLessonsStatedTimeMustBeTheManifests) {
  write("lessons/42_answer/README.md", "# The answer\n\n> Stage 1 · about 35 minutes\n");
  const auto layout = [&] { return joined(driver::layout_problems(manifest_, root_.string())); };
  EXPECT_TRUE(contains(layout(),
                       "lessons/42_answer/README.md says about 35 minutes, the "
                       "manifest's \"minutes\" says nothing"))
      << layout();
  manifest_.lessons.back().minutes = 35;
  EXPECT_FALSE(contains(layout(), "minutes")) << layout();
}

// A solutions/ folder that does not mirror exercises/ names the files each side lacks.
TEST_F(CourseChecksOnACopy, AMirrorThatDiffersNamesTheFiles) {
  fs::create_directories(root_ / "exercises" / "42_answer");
  fs::create_directories(root_ / "solutions" / "42_answer");
  write("exercises/42_answer/answer.cu", "// stub\n");
  write("exercises/42_answer/extra.cu", "// stub\n");
  write("solutions/42_answer/answer.cu", "// solved\n");
  write("solutions/42_answer/only_solved.cu", "// solved\n");
  const std::string layout = joined(driver::layout_problems(manifest_, root_.string()));
  EXPECT_TRUE(contains(layout,
                       "solutions/42_answer/ does not mirror exercises/42_answer/ file for file: "
                       "missing solutions/42_answer/extra.cu, exercises/42_answer/only_solved.cu"))
      << layout;
}

}  // namespace
