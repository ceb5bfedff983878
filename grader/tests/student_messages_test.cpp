// What a student reads when grading cannot go as planned: no GPU, no compute-sanitizer, compiler
// warnings in their file, the same reason for many lessons; and the README's list of commands.
// Each test was written against a fault of issue 22 (a new student trying lessons 01-09).
#include <gtest/gtest.h>
#include <unistd.h>

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

TEST(Readme, TheQuickExampleOnLesson07NamesNoOtherLessonsCases) {
  const std::string text = readme();
  const auto at = text.find("./build/grader 07_transpose --quick");
  ASSERT_NE(at, std::string::npos);
  const std::string line = text.substr(at, text.find('\n', at) - at);
  EXPECT_FALSE(contains(line, "2^31")) << line;
  EXPECT_TRUE(contains(line, "several GiB")) << line;
}

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

TEST(SanitizerMissing, UsableSanitizerTellsTheCasesApart) {
  driver::GradeOptions o;
  o.sanitizer = "/nonexistent/compute-sanitizer";
  std::string why;
  EXPECT_EQ(driver::usable_sanitizer(o, why), "");
  EXPECT_TRUE(contains(why, "is not an executable file")) << why;
}

}  // namespace
