// The course manifest: the real one is sane, and bad ones are reported, not crashed on.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "course/config.hpp"
#include "course/layout.hpp"
#include "course/manifest.hpp"
#include "devcheck.hpp"

namespace {

const course::Manifest& real() {
  static const course::Manifest m =
      course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  return m;
}

TEST(Manifest, RealManifestHasNoProblems) {
  const std::vector<std::string> problems = real().problems();
  EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST(Manifest, RealLayoutMatchesManifest) {
  const std::vector<std::string> problems = driver::layout_problems(real(), COURSE_SOURCE_DIR);
  EXPECT_TRUE(problems.empty()) << problems.front();
}

// The curriculum's 15 lessons (README.md's course map), numbered 01-15 in order; lessons added
// after them (grader dev new 16_...) come later in the file.
TEST(Manifest, TheFifteenLessonsOfTheCurriculumInOrder) {
  ASSERT_GE(real().lessons.size(), 15u);
  for (std::size_t i = 0; i < 15; ++i)
    EXPECT_EQ(real().lessons[i].number(), static_cast<int>(i) + 1);
}

TEST(Manifest, TransposeStepsAndGates) {
  const course::Lesson* l = real().find("07_transpose");
  ASSERT_NE(l, nullptr);
  ASSERT_EQ(l->steps.size(), 5u);
  EXPECT_EQ(l->required_steps().size(), 3u);
  EXPECT_TRUE(l->steps[3].optional);
  EXPECT_EQ(l->steps[3].requires_cc, "8.0");
  EXPECT_FALSE(l->steps[4].gate.has_value());
  EXPECT_EQ(l->steps[0].name, "naive");
  EXPECT_FALSE(l->steps[0].gate.has_value());
  ASSERT_TRUE(l->steps[2].gate.has_value());
  EXPECT_DOUBLE_EQ(l->steps[2].gate->fraction_of_ceiling, 0.85);
  for (const course::Step& s : l->steps) EXPECT_EQ(s.hints.size(), 3u) << s.name;
}

TEST(Resolve, AcceptsShortForms) {
  for (const char* spec : {"07_transpose", "07", "7", "transpose", "TRANSPOSE"}) {
    const course::Selection s = course::resolve(real(), spec);
    ASSERT_NE(s.lesson, nullptr) << spec;
    EXPECT_EQ(s.lesson->id, "07_transpose") << spec;
    EXPECT_EQ(s.step, nullptr) << spec;
  }
  const course::Selection s = course::resolve(real(), "7.tiled_padded");
  ASSERT_NE(s.step, nullptr);
  EXPECT_EQ(s.step->name, "tiled_padded");
  EXPECT_EQ(course::resolve(real(), "transpose.TILED").step->name, "tiled");
}

TEST(ComputeCapability, ComparesAsNumbers) {
  EXPECT_TRUE(course::cc_at_least("9.0", "8.0"));
  EXPECT_TRUE(course::cc_at_least("8.0", "8.0"));
  EXPECT_FALSE(course::cc_at_least("7.5", "8.0"));
  EXPECT_TRUE(course::cc_at_least("10.0", "9.0"));  // not a string comparison
  EXPECT_TRUE(course::cc_at_least("7.5", ""));
  EXPECT_FALSE(course::cc_at_least("?", "7.5"));
}

TEST(Resolve, RejectsUnknownWithHelpfulMessage) {
  EXPECT_THROW(course::resolve(real(), "transpos"), course::UsageError);
  EXPECT_THROW(course::resolve(real(), "99"), course::UsageError);
  EXPECT_THROW(course::resolve(real(), "07."), course::UsageError);  // an empty step is a typo
  try {
    course::resolve(real(), "7.padded");
    FAIL() << "no exception";
  } catch (const course::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("naive, tiled, tiled_padded"), std::string::npos);
  }
}

const char* kMinimal =
    R"({"schema":1,"course":"c","version":"1","stages":[{"number":1,"title":"s"}],
  "lessons":[%s]})";

course::Manifest with_lessons(const std::string& lessons) {
  char buf[4096];
  std::snprintf(buf, sizeof buf, kMinimal, lessons.c_str());
  return course::Manifest::parse(buf, "test");
}

TEST(Manifest, ReportsDuplicatesAndBadGates) {
  const std::string step = R"({"name":"a","hints":["x","y"],"gate":{"fraction_of_ceiling":1.5}})";
  const std::string lesson = R"({"id":"01_x","title":"t","stage":1,"status":"ready",
    "ceiling":{"kernel":"k"},"steps":[)" +
                             step + "," + step + R"(],
    "wrong_kernels":[{"name":"w","step":"nope","diagnosis":"d"}]})";
  const std::vector<std::string> p = with_lessons(lesson + "," + lesson).problems();
  auto has = [&](const std::string& text) {
    for (const std::string& s : p)
      if (s.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("appears twice"));
  EXPECT_TRUE(has("outside (0, 1]"));
  EXPECT_TRUE(has("unknown step 'nope'"));
  EXPECT_TRUE(has("out of order"));
}

// A gate above 1 means beating the ceiling: allowed against a library (12_histogram's stretch:
// faster than CUB), below the bound where figures are rejected as impossible; never against a
// copy rung.
TEST(Manifest, GatesAboveOneOnlyAgainstALibrary) {
  auto problems_with = [](const std::string& kind, double gate) {
    const std::string lesson = R"({"id":"01_x","title":"t","stage":1,"status":"ready",
      "steps":[{"name":"a","hints":["x","y"],"ceiling":{"kind":")" +
                               kind + R"(","kernel":"k"},"gate":{"fraction_of_ceiling":)" +
                               std::to_string(gate) + "}}]}";
    std::string all;
    for (const std::string& p : with_lessons(lesson).problems()) all += p + "\n";
    return all;
  };
  EXPECT_EQ(problems_with("library", 1.02).find("gate"), std::string::npos)
      << problems_with("library", 1.02);
  EXPECT_NE(problems_with("library", 1.5).find("outside (0, 1.5) for a library ceiling"),
            std::string::npos);
  EXPECT_NE(problems_with("copy", 1.02).find("outside (0, 1]"), std::string::npos);
}

// Ceilings of four kinds, per step or inherited from the lesson (docs/INSTRUCTORS.md, "Adding a
// ceiling kind"): a copy rung, a read rung, a library call (CUB, cuBLAS: "libraries" links the
// toolkit's cuBLAS), and a compute rung for SM-bound steps ("rung"). A library may be beaten by a
// little, a rung of the same geometry not.
TEST(Manifest, CeilingsOfFourKindsPerStep) {
  const std::string lesson = R"({"id":"05_x","title":"t","stage":1,"status":"ready",
    "libraries":["cublas"], "ceiling":{"kind":"copy","kernel":"copy_rung"},
    "steps":[{"name":"a","hints":["x","y","z"],"gate":{"fraction_of_ceiling":0.8}},
             {"name":"b","hints":["x","y","z"],"gate":{"fraction_of_ceiling":0.6},
              "ceiling":{"kind":"library","kernel":"cub::DeviceReduce::Sum"}},
             {"name":"c","hints":["x","y","z"],"gate":{"fraction_of_ceiling":0.6},
              "ceiling":{"kind":"read","kernel":"read_rung"}},
             {"name":"d","hints":["x","y","z"],"gate":{"fraction_of_ceiling":0.8},
              "ceiling":{"kind":"rung","kernel":"same_work_one_branch"}}]})";
  const course::Manifest m = with_lessons(lesson);
  EXPECT_TRUE(m.problems().empty()) << m.problems().front();
  const course::Lesson& l = m.lessons.at(0);
  EXPECT_EQ(l.libraries, std::vector<std::string>{"cublas"});
  EXPECT_EQ(l.steps[0].ceiling.kind, "copy");
  EXPECT_EQ(l.steps[0].ceiling.kernel, "copy_rung");
  EXPECT_DOUBLE_EQ(l.steps[0].ceiling.impossible_above(), 1.05);
  EXPECT_EQ(l.steps[1].ceiling.kind, "library");
  EXPECT_EQ(l.steps[1].ceiling.kernel, "cub::DeviceReduce::Sum");
  EXPECT_DOUBLE_EQ(l.steps[1].ceiling.impossible_above(), 1.5);
  EXPECT_EQ(l.steps[2].ceiling.kind, "read");
  EXPECT_EQ(l.steps[3].ceiling.kind, "rung");
  EXPECT_DOUBLE_EQ(l.steps[3].ceiling.impossible_above(), 1.05);

  // An unknown kind or library, and a gate with no ceiling, are problems.
  const std::string bad = R"({"id":"05_x","title":"t","stage":1,"status":"ready",
    "libraries":["cudnn"],
    "steps":[{"name":"a","hints":["x","y","z"],"gate":{"fraction_of_ceiling":0.8}},
             {"name":"b","hints":["x","y","z"],"gate":{"fraction_of_ceiling":0.8},
              "ceiling":{"kind":"guess","kernel":"k"}}]})";
  const std::vector<std::string> p = with_lessons(bad).problems();
  auto has = [&](const std::string& text) {
    for (const std::string& s : p)
      if (s.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("unknown library 'cudnn'"));
  EXPECT_TRUE(has("has a gate but names no ceiling kernel"));
  EXPECT_TRUE(has("ceiling kind 'guess' is not one of copy, read, library, rung"));
}

// "link_wraps" names CUDA runtime functions the lesson's code wraps at link time (lesson 14 counts
// the streams and pinned buffers a student's host code creates); anything else is a problem.
TEST(Manifest, LinkWrapsNameRuntimeFunctions) {
  const std::string lesson = R"({"id":"14_x","title":"t","stage":1,"status":"ready",
    "link_wraps":["cudaStreamCreate","cudaFreeHost"],
    "steps":[{"name":"a","hints":["x","y"],"gate":null}]})";
  const course::Manifest m = with_lessons(lesson);
  EXPECT_TRUE(m.problems().empty()) << m.problems().front();
  EXPECT_EQ(m.lessons.at(0).link_wraps,
            (std::vector<std::string>{"cudaStreamCreate", "cudaFreeHost"}));
  const std::string bad = R"({"id":"14_x","title":"t","stage":1,"status":"ready",
    "link_wraps":["malloc","cudaFree;rm"],
    "steps":[{"name":"a","hints":["x","y"],"gate":null}]})";
  const std::vector<std::string> p = with_lessons(bad).problems();
  ASSERT_EQ(p.size(), 2u);
  EXPECT_NE(p[0].find("link_wraps entry 'malloc'"), std::string::npos) << p[0];
}

// "student_host_code" marks the lessons whose student files hold host code: those are compiled
// and linked normally, the others may be built as device images (cmake/CourseDeviceImage.cmake).
TEST(Manifest, StudentHostCodeDefaultsToDeviceOnly) {
  const std::string plain = R"({"id":"16_x","title":"t","stage":1,"status":"ready",
    "steps":[{"name":"a","hints":["x","y"],"gate":null}]})";
  EXPECT_FALSE(with_lessons(plain).lessons.at(0).student_host_code);
  const std::string host = R"({"id":"16_x","title":"t","stage":1,"status":"ready",
    "student_host_code":true, "steps":[{"name":"a","hints":["x","y"],"gate":null}]})";
  EXPECT_TRUE(with_lessons(host).lessons.at(0).student_host_code);
}

// The course's own manifest marks exactly the lessons whose kernel files (exercises/, solutions/,
// the wrong kernels) define a host function at namespace scope: a line that starts with a return
// type and a name and a parenthesis (not __global__ or __device__), or with __host__. A device
// image leaves host code out, so a lesson that has some but is not marked would lose it (and a
// marked lesson without any would build slower than it could).
TEST(Manifest, StudentHostCodeMarksTheLessonsWithHostFunctions) {
  namespace fs = std::filesystem;
  const std::regex host_function(
      R"(^(?!__global__|__device__|static __device__|template|namespace|struct|using|)"
      R"(extern|#|//)[A-Za-z_][\w:<>]*(\s*[*&])?\s+[*&]?\w+\s*\()");
  const fs::path root = COURSE_SOURCE_DIR;
  const course::Manifest m = course::Manifest::load((root / "lessons/course.json").string());
  for (const course::Lesson& l : m.lessons) {
    if (l.status != "ready") continue;
    std::string found;
    for (const fs::path dir : {root / "exercises" / l.id, root / "solutions" / l.id,
                               root / "grader/lessons" / l.id / "wrong"}) {
      std::error_code none;
      for (const auto& f : fs::directory_iterator(dir, none)) {
        if (f.path().extension() != ".cu" && f.path().extension() != ".cuh") continue;
        std::ifstream in(f.path());
        for (std::string line; std::getline(in, line) && found.empty();)
          if (line.rfind("__host__", 0) == 0 || std::regex_search(line, host_function))
            found = f.path().string() + ": " + line;
      }
    }
    EXPECT_EQ(l.student_host_code, !found.empty())
        << l.id << (found.empty() ? ": no host function in its kernel files" : ": " + found);
  }
}

TEST(Manifest, BadJsonAndBadShapeThrowManifestError) {
  EXPECT_THROW(course::Manifest::parse("{not json", "x"), course::ManifestError);
  EXPECT_THROW(course::Manifest::parse(R"({"schema":1})", "x"), course::ManifestError);
  EXPECT_THROW(course::Manifest::parse(
                   R"({"schema":2,"course":"c","version":"1","stages":[],"lessons":[]})", "x"),
               course::ManifestError);
  EXPECT_THROW(course::Manifest::load("/nonexistent/course.json"), course::ManifestError);
}

}  // namespace

// course/layout.hpp against the course itself: every ready lesson's folders and files are where
// the one description of the layout says, and its relative form is what the docs write.
TEST(Layout, EveryReadyLessonIsWhereTheLayoutSays) {
  namespace layout = course::layout;
  const std::filesystem::path root = course::config::kSourceDir;
  const course::Manifest m = course::Manifest::load(layout::manifest(root).string());
  int ready = 0;
  for (const course::Lesson& l : m.lessons) {
    if (!l.ready()) continue;
    ++ready;
    for (const std::filesystem::path& p :
         {layout::readme(root, l.id), layout::quiz(root, l.id), layout::exercises(root, l.id),
          layout::solutions(root, l.id), layout::hidden_tests(root, l.id)})
      EXPECT_TRUE(std::filesystem::exists(p)) << p;
    for (const course::WrongKernel& w : l.wrong_kernels)
      EXPECT_TRUE(std::filesystem::exists(layout::wrong_kernels(root, l.id) / (w.name + ".cu")))
          << l.id << " " << w.name;
  }
  EXPECT_GT(ready, 0);
  EXPECT_EQ(layout::exercises("", "07_transpose").generic_string(), "exercises/07_transpose");
  EXPECT_EQ(layout::wrong_kernels("", "07_transpose").generic_string(),
            "grader/lessons/07_transpose/wrong");
}
