// What a student reads when grading cannot go as planned: no GPU, no compute-sanitizer, compiler
// warnings in their file, the same reason for many lessons; and the README's list of commands.
// Each test was written against a fault of issue 22 (a new student trying lessons 01-09).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "course/extensions.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"
#include "grade.hpp"
#include "progress.hpp"
#include "quiz_fixture.hpp"
#include "test_dir.hpp"

namespace {

namespace fs = std::filesystem;
using test_fixture::contains;

std::string readme() {
  return course::read_text(COURSE_SOURCE_DIR "/README.md").value_or("");
}

// Item 10: the message led with the raw CUDA error, named no Colab notebook and left out
// `grader banks`.
TEST(NoGpuMessage, LeadsWithThePlainSentenceThenTheRawError) {
  const std::string m =
      driver::no_gpu_message("cudaErrorNoDevice: no CUDA-capable device is detected", "");
  EXPECT_EQ(m.rfind("no usable CUDA GPU here, so nothing was graded", 0), 0u) << m;
  EXPECT_TRUE(contains(m, "compute capability 7.5 or newer")) << m;
  EXPECT_TRUE(contains(m, "docs/colab.ipynb")) << m;
  EXPECT_TRUE(contains(m, "`grader quiz`")) << m;
  EXPECT_FALSE(course::ext::tools().empty());
  for (const course::ext::ToolInfo& tool : course::ext::tools())
    EXPECT_TRUE(contains(m, "`grader " + tool.name + "`")) << tool.name << ": " << m;
  const auto raw = m.find("cudaErrorNoDevice");
  ASSERT_NE(raw, std::string::npos);
  EXPECT_GT(raw, m.find("docs/colab.ipynb")) << "the raw error comes last: " << m;
  EXPECT_TRUE(contains(driver::no_gpu_message("", "8.0"), "compute capability 8.0"));
}

// Item 10: every lesson's tool is among the README's commands: its `COMMAND --help` list and the
// commands of "Working through a lesson" (`grader banks` was in neither).
TEST(Readme, ListsEveryLessonToolAmongTheCommands) {
  const std::string text = readme();
  std::smatch help;
  ASSERT_TRUE(
      std::regex_search(text, help, std::regex("COMMAND --help` for the commands \\(([^)]*)\\)")))
      << "README.md has no `COMMAND --help` list";
  for (const course::ext::ToolInfo& tool : course::ext::tools()) {
    SCOPED_TRACE(tool.name);
    EXPECT_TRUE(contains(help[1].str(), "`" + tool.name + "`")) << help[1].str();
    EXPECT_TRUE(contains(text, "./build/grader " + tool.name + " "));
  }
}

// Item 12: the --quick example on lesson 07 named lesson 03's 2^31-element cases.
TEST(Readme, TheQuickExampleOnLesson07NamesNoOtherLessonsCases) {
  const std::string text = readme();
  const auto at = text.find("./build/grader 07_transpose --quick");
  ASSERT_NE(at, std::string::npos);
  const std::string line = text.substr(at, text.find('\n', at) - at);
  EXPECT_FALSE(contains(line, "2^31")) << line;
  EXPECT_TRUE(contains(line, "several GiB")) << line;
}

// Item 12: without compute-sanitizer the grader said to fix PATH, also where none is installed.
TEST(SanitizerMissing, NotInstalledIsNotAPathProblem) {
  const std::string why = driver::missing_sanitizer_reason("/usr/local/cuda/bin", {});
  EXPECT_TRUE(contains(why, "compute-sanitizer is not installed")) << why;
  EXPECT_TRUE(contains(why, "/usr/local/cuda/bin")) << why;
  EXPECT_FALSE(contains(why, "on PATH:")) << why;
  EXPECT_FALSE(contains(why, "export PATH")) << why;
}

TEST(SanitizerMissing, InstalledElsewhereSaysWhereAndHowToUseIt) {
  const std::string why = driver::missing_sanitizer_reason(
      "/usr/local/cuda/bin", {"/usr/local/cuda-12.4/bin/compute-sanitizer"});
  EXPECT_TRUE(contains(why, "installed at /usr/local/cuda-12.4/bin/compute-sanitizer")) << why;
  EXPECT_TRUE(contains(why, "export PATH=/usr/local/cuda-12.4/bin:$PATH")) << why;
  EXPECT_TRUE(contains(why, "GRADER_COMPUTE_SANITIZER=/usr/local/cuda-12.4/bin/compute-sanitizer"))
      << why;
}

// What a machine with no compute-sanitizer anywhere says when asked for one: not installed.
TEST(SanitizerMissing, UsableSanitizerTellsTheCasesApart) {
  driver::GradeOptions o;
  o.sanitizer = "/nonexistent/compute-sanitizer";
  std::string why;
  EXPECT_EQ(driver::usable_sanitizer(o, why), "");
  EXPECT_TRUE(contains(why, "is not an executable file")) << why;
}

// Item 11: a student's compiler warnings were never shown.
TEST(StudentWarnings, KeepsWarningsAboutTheStudentsFilesWithTheirContext) {
  const std::string src = "/home/me/course";
  const std::string log =
      "[1/3] Building CUDA object "
      "CMakeFiles/grade_01_hello_threads_kernels.dir/exercises/01_hello_threads/"
      "hello_threads.cu.o\n"
      "/home/me/course/exercises/01_hello_threads/hello_threads.cu(12): warning #177-D: variable "
      "\"unused\" was declared but never referenced\n"
      "      int unused = 0;\n"
      "          ^\n"
      "\n"
      "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
      "\n"
      "/home/me/course/lessons/01_hello_threads/launch.cu(3): warning #550-D: not the student's\n"
      "      int course = 1;\n"
      "[2/3] Linking CUDA static library libgrade_01_hello_threads_kernels.a\n";
  const std::string w = driver::student_warnings(log, src);
  EXPECT_TRUE(contains(w, "exercises/01_hello_threads/hello_threads.cu(12): warning #177-D")) << w;
  EXPECT_FALSE(contains(w, src)) << "paths are relative to the course: " << w;
  EXPECT_TRUE(contains(w, "int unused = 0;")) << w;
  EXPECT_FALSE(contains(w, "Building")) << w;
  EXPECT_FALSE(contains(w, "launch.cu")) << w;
  EXPECT_FALSE(contains(w, "Remark")) << w;
  EXPECT_EQ(driver::student_warnings("[1/1] Building ...exercises/x.cu.o\n", src), "");
}

course::LessonReport passed_lesson(const std::string& id) {
  course::LessonReport l;
  l.id = id;
  l.title = "Title";
  l.status = course::LessonStatus::pass;
  course::StepReport s;
  s.name = "only";
  s.status = course::StepStatus::pass;
  s.tests_passed = s.tests_total = 1;
  l.steps.push_back(s);
  return l;
}

TEST(StudentWarnings, TheReportShowsTheFirstLinesAndAllWithVerbose) {
  course::Report r;
  r.lessons.push_back(passed_lesson("01_hello_threads"));
  std::string warnings;
  for (int i = 0; i < 20; ++i)
    warnings += fmt::format("exercises/01_hello_threads/a.cu({}): warning: number {}\n", i, i);
  r.lessons.back().build_warnings = warnings;
  const std::string brief = course::to_text(r, course::TextOptions{false, false, "grader"});
  EXPECT_TRUE(contains(brief, "compiler warnings in your code")) << brief;
  EXPECT_TRUE(contains(brief, "warning: number 0")) << brief;
  EXPECT_FALSE(contains(brief, "warning: number 19")) << brief;
  EXPECT_TRUE(contains(brief, "and 8 more lines (--verbose shows all)")) << brief;
  const std::string all = course::to_text(r, course::TextOptions{false, true, "grader"});
  EXPECT_TRUE(contains(all, "warning: number 19")) << all;
  EXPECT_EQ(course::to_json(r)["lessons"][0]["build_warnings"], warnings);
  r.lessons.back().build_warnings.clear();
  EXPECT_FALSE(course::to_json(r)["lessons"][0].contains("build_warnings"));
}

// Item 11: `--all` without a GPU printed the same ~300-character paragraph once per lesson.
TEST(NoGpuText, TheSameReasonIsSaidOnceForEveryLesson) {
  course::Report r;
  for (const char* id : {"01_hello_threads", "02_vector_add", "03_grid_stride"}) {
    course::LessonReport l;
    l.id = id;
    l.title = "Title";
    l.status = course::LessonStatus::no_gpu;
    l.message = driver::no_gpu_message("cudaErrorNoDevice", "");
    r.lessons.push_back(l);
  }
  const std::string text = course::to_text(r, course::TextOptions{false, false, "grader"});
  std::size_t said = 0;
  for (auto at = text.find("docs/colab.ipynb"); at != std::string::npos;
       at = text.find("docs/colab.ipynb", at + 1))
    ++said;
  EXPECT_EQ(said, 1u) << text;
  EXPECT_TRUE(contains(text, "SKIP  not graded: the same reason as 01_hello_threads above"))
      << text;
  EXPECT_EQ(r.exit_code(), course::kExitNoGpu);
}

// The map counts planned lessons only when there are some ("(0 planned)" puzzled a fresh student).
TEST(CourseMap, CountsPlannedLessonsOnlyWhenThereAreSome) {
  course::Manifest m = test_fixture::manifest();
  const fs::path dir = test_fixture::fresh_test_dir("map-planned");
  const driver::Progress progress((dir / "progress.json").string());
  m.lessons.erase(std::remove_if(m.lessons.begin(), m.lessons.end(),
                                 [](const course::Lesson& l) { return !l.ready(); }),
                  m.lessons.end());
  const std::string none = driver::course_map(m, progress, false, "grader");
  EXPECT_EQ(none.find("planned"), std::string::npos) << none;
  m.lessons.push_back(test_fixture::planned_lesson());
  const std::string one = driver::course_map(m, progress, false, "grader");
  EXPECT_NE(one.find("available lessons done (1 more planned)."), std::string::npos) << one;
  fs::remove_all(dir);
}

// Item 11: `--json` without a lesson printed the text map; it is the progress as JSON now.
TEST(CourseMapJson, ProgressAsAScriptReadsIt) {
  const course::Manifest m = test_fixture::manifest();
  const fs::path dir = test_fixture::fresh_test_dir("map-json");
  driver::Progress progress((dir / "progress.json").string());
  const course::Lesson first = test_fixture::ready_lessons().front();  // a copy: a temporary
  course::LessonReport graded = passed_lesson(first.id);
  graded.steps.front().name = first.steps.front().name;
  ASSERT_TRUE(progress.update(graded, "t"));
  progress.set_quiz_score(first.id, 2, 4, "t", true);
  const nlohmann::json j = driver::course_map_json(m, progress);
  EXPECT_EQ(j["format"], "cuda-course-grader-progress");
  EXPECT_EQ(j["format_version"], 1);
  EXPECT_EQ(j["next"], first.id);
  ASSERT_EQ(j["lessons"].size(), m.lessons.size());
  const nlohmann::json& l = j["lessons"][0];
  EXPECT_EQ(l["lesson"], first.id);
  EXPECT_EQ(l["minutes"], first.minutes);
  EXPECT_EQ(l["steps_passed"], 1);
  EXPECT_EQ(l["steps"][0]["passed"], true);
  EXPECT_EQ(l["steps"][0]["last"], "pass");
  EXPECT_EQ(l["quiz"]["score"], 2);
  EXPECT_EQ(l["quiz"]["retry"], false);
  for (const nlohmann::json& each : j["lessons"])
    if (each["status"] != "ready") {
      EXPECT_TRUE(each["quiz"].is_null());
      EXPECT_EQ(each["done"], false);
    }
  fs::remove_all(dir);
}

}  // namespace
