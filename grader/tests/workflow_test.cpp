// grader reset never loses a student's work; grader watch re-grades on change; only the student's
// own graded steps are recorded as progress.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "course/manifest.hpp"
#include "course/report.hpp"
#include "progress.hpp"
#include "test_dir.hpp"
#include "workflow.hpp"

namespace {

namespace fs = std::filesystem;

class Workflow : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = test_fixture::fresh_test_dir("workflow");
    fs::create_directories(root_ / "exercises" / "42_lesson");
    fs::create_directories(root_ / "solutions" / "42_lesson");
    fs::create_directories(root_ / "lessons" / "42_lesson");
    std::ofstream(root_ / "solutions" / "42_lesson" / "kernels.cu") << "// solution\n";
    std::ofstream(root_ / "lessons" / "42_lesson" / "kernels.cuh") << "// one kernel\n";
    write("// the original stub\n");
    ASSERT_EQ(std::system((git("init -q") + " && " + git("add -A") + " && " +
                           git("-c user.name=t -c user.email=t@t commit -qm stub"))
                              .c_str()),
              0);
    lesson_.id = "42_lesson";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path file() const { return root_ / "exercises" / "42_lesson" / "kernels.cu"; }
  std::string git(const std::string& args) const { return "git -C " + root_.string() + " " + args; }
  // A later course commit extends the stub, and (as such commits do) the lesson's header.
  void ship_second_version() {
    write(kSecondStub);
    std::ofstream(root_ / "lessons" / "42_lesson" / "kernels.cuh") << "// two kernels\n";
    ASSERT_EQ(std::system((git("add -A") + " && " +
                           git("-c user.name=c -c user.email=c@c commit -qm 'a second kernel'"))
                              .c_str()),
              0);
  }
  void student_commits(const std::string& text) {
    write(text);
    ASSERT_EQ(std::system(git("-c user.name=s -c user.email=s@s commit -qam work").c_str()), 0);
  }
  static constexpr const char* kSecondStub = "// the original stub\n// and a second kernel\n";
  void write(const std::string& text) { std::ofstream(file()) << text; }
  std::string read() const {
    std::ifstream in(file());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  int reset(const std::string& typed, bool yes, bool interactive, std::string* said = nullptr) {
    std::istringstream in(typed);
    std::ostringstream out;
    driver::ResetOptions o;
    o.yes = yes;
    o.interactive = interactive;
    o.in = &in;
    o.out = &out;
    const int rc = driver::run_reset(lesson_, root_.string(), (root_ / ".grader").string(), o);
    if (said) *said = out.str();
    return rc;
  }
  fs::path root_;
  course::Lesson lesson_;
};

TEST_F(Workflow, ResetAsksAndKeepsWorkUnlessConfirmed) {
  write("// my work\n");
  EXPECT_EQ(reset("no\n", false, true), 0);  // declined: nothing changed, not an error
  EXPECT_EQ(read(), "// my work\n");
  std::string said;
  EXPECT_EQ(reset("", false, false, &said), 2);  // no terminal, no --yes: refuse
  EXPECT_NE(said.find("Nothing was changed"), std::string::npos);
  EXPECT_EQ(read(), "// my work\n");
}

TEST_F(Workflow, ResetRestoresAndBacksUp) {
  write("// my work\n");
  EXPECT_EQ(reset("yes\n", false, true), 0);
  EXPECT_EQ(read(), "// the original stub\n");
  int backups = 0;
  for (const auto& e : fs::directory_iterator(root_ / ".grader" / "backup" / "42_lesson")) {
    ++backups;
    std::ifstream in(e.path());
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_EQ(s.str(), "// my work\n");
  }
  EXPECT_EQ(backups, 1);
}

TEST_F(Workflow, ResetRestoresTheShippedStubNotTheStudentsLastCommit) {
  student_commits("// my committed work\n");
  write("// more work\n");
  EXPECT_EQ(reset("", true, false), 0);
  EXPECT_EQ(read(), "// the original stub\n");
}

// The stub of this checkout, not the first one ever committed: that one lacks the later kernels,
// and the lesson would no longer link.
TEST_F(Workflow, ResetRestoresTheStubOfThisCheckoutNotTheFirstOne) {
  ship_second_version();
  write("// my work\n");
  std::string said;
  EXPECT_EQ(reset("", true, false, &said), 0);
  EXPECT_EQ(read(), kSecondStub);
  EXPECT_NE(said.find("as this checkout of the course shipped it (commit "), std::string::npos)
      << said;
}

TEST_F(Workflow, ResetFindsTheStubOfThisCheckoutUnderTheStudentsCommits) {
  ship_second_version();
  student_commits("// my committed work\n");
  student_commits("// more committed work\n");
  write("// and more\n");
  EXPECT_EQ(reset("", true, false), 0);
  EXPECT_EQ(read(), kSecondStub);
}

TEST_F(Workflow, ResetOfAnUntouchedLaterStubChangesNothing) {
  ship_second_version();
  std::string said;
  EXPECT_EQ(reset("", true, false, &said), 0);
  EXPECT_NE(said.find("already as the course shipped it"), std::string::npos) << said;
  EXPECT_EQ(read(), kSecondStub);
  EXPECT_FALSE(fs::exists(root_ / ".grader" / "backup"));
}

TEST_F(Workflow, ResetRecreatesADeletedStubAndLeavesExtraFilesAlone) {
  fs::remove(file());
  std::ofstream(root_ / "exercises" / "42_lesson" / "helper.cuh") << "// mine\n";
  EXPECT_EQ(reset("", true, false), 0);
  EXPECT_EQ(read(), "// the original stub\n");
  EXPECT_TRUE(fs::exists(root_ / "exercises" / "42_lesson" / "helper.cuh"));
}

TEST_F(Workflow, TwoResetsInOneSecondKeepBothBackups) {
  write("// work A\n");
  EXPECT_EQ(reset("", true, false), 0);
  write("// work B\n");
  EXPECT_EQ(reset("", true, false), 0);
  std::set<std::string> kept;
  for (const auto& e : fs::directory_iterator(root_ / ".grader" / "backup" / "42_lesson")) {
    std::ifstream in(e.path());
    std::stringstream s;
    s << in.rdbuf();
    kept.insert(s.str());
  }
  EXPECT_EQ(kept, (std::set<std::string>{"// work A\n", "// work B\n"}));
}

TEST_F(Workflow, ResetOutsideGitSaysSo) {
  fs::remove_all(root_ / ".git");
  std::string said;
  EXPECT_EQ(reset("", true, false, &said), 2);
  EXPECT_NE(said.find("not a git checkout"), std::string::npos) << said;
}

TEST_F(Workflow, ResetOfAnUntouchedStubChangesNothing) {
  std::string said;
  EXPECT_EQ(reset("", true, false, &said), 0);
  EXPECT_NE(said.find("already as the course shipped it"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_ / ".grader" / "backup"));
}

TEST_F(Workflow, WatchWakesOnTheSaveNotOnThePollInterval) {
  // With a 30 s interval only a file event can make the second grading happen within the test.
  int graded = 0;
  std::thread editor([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    write("// saved\n");
  });
  const auto start = std::chrono::steady_clock::now();
  driver::run_watch(lesson_, root_.string(), 30.0, 2, [&] { return ++graded, 0; });
  editor.join();
  EXPECT_EQ(graded, 2);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
}

// A fresh student's trial: `watch --max-runs 1` said it was watching and stopped; without a GPU
// it watched on with no word that a save is only compiled there.
TEST_F(Workflow, WatchSaysWhatItWatchesFor) {
  testing::internal::CaptureStdout();
  driver::run_watch(lesson_, root_.string(), 0.1, 1, [] { return course::kExitNoGpu; });
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out.find("watching"), std::string::npos) << out;

  std::thread editor([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    write("// edited\n");
    fs::last_write_time(file(), fs::file_time_type::clock::now() + std::chrono::seconds(5));
  });
  testing::internal::CaptureStdout();
  driver::run_watch(lesson_, root_.string(), 0.1, 2, [] { return course::kExitNoGpu; });
  editor.join();
  out = testing::internal::GetCapturedStdout();
  EXPECT_NE(
      out.find("for changes: this machine cannot grade (above), so a change is only compiled"),
      std::string::npos)
      << out;
}

TEST_F(Workflow, WatchGradesAgainAfterASave) {
  int graded = 0;
  std::thread editor([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    write("// edited\n");
    fs::last_write_time(file(), fs::file_time_type::clock::now() + std::chrono::seconds(5));
  });
  driver::run_watch(lesson_, root_.string(), 0.1, 2, [&] { return ++graded, 0; });
  editor.join();
  EXPECT_EQ(graded, 2);
}

// The grader saves progress only when update() says a lesson was recorded (main.cpp, and watch):
// a --variant run, or a lesson that graded no step (no GPU, build failed), records nothing.
TEST(ProgressUpdate, RecordsOnlyTheStudentsGradedSteps) {
  const fs::path p = fs::temp_directory_path() /
                     ("grader-progress-update-" + std::to_string(::getpid()) + ".json");
  fs::remove(p);
  driver::Progress progress(p.string());
  EXPECT_FALSE(fs::exists(p));  // reading creates nothing
  course::LessonReport l;
  l.id = "42_lesson";
  l.status = course::LessonStatus::pass;
  course::StepReport naive;
  naive.name = "naive";
  naive.status = course::StepStatus::pass;
  l.steps = {naive};
  l.variant = "solution";
  EXPECT_FALSE(progress.update(l, "t1"));
  EXPECT_FALSE(progress.step_passed("42_lesson", "naive"));
  l.variant = "";
  course::LessonReport no_gpu = l;
  no_gpu.status = course::LessonStatus::no_gpu;
  no_gpu.steps.clear();
  EXPECT_FALSE(progress.update(no_gpu, "t1"));
  EXPECT_TRUE(progress.update(l, "t2"));
  EXPECT_TRUE(progress.step_passed("42_lesson", "naive"));
  EXPECT_FALSE(fs::exists(p));  // nothing is written until save()
  ASSERT_TRUE(progress.save());
  EXPECT_TRUE(driver::Progress(p.string()).step_passed("42_lesson", "naive"));
  fs::remove(p);
}

// A step this machine cannot grade (every test skipped) counts as done on the course map, so that
// "Next:" moves on; it is not recorded as passed.
TEST(ProgressUpdate, AStepThatCannotBeGradedHereCountsAsDoneOnTheMap) {
  const fs::path p = fs::temp_directory_path() /
                     ("grader-progress-skipped-" + std::to_string(::getpid()) + ".json");
  fs::remove(p);
  driver::Progress progress(p.string());
  course::Lesson lesson;
  lesson.id = "42_lesson";
  lesson.steps.resize(2);
  lesson.steps[0].name = "small";
  lesson.steps[1].name = "large";
  course::LessonReport l;
  l.id = "42_lesson";
  l.status = course::LessonStatus::pass;
  l.steps.resize(2);
  l.steps[0].name = "small";
  l.steps[0].status = course::StepStatus::pass;
  l.steps[1].name = "large";
  l.steps[1].status = course::StepStatus::skipped;
  ASSERT_TRUE(progress.update(l, "t1"));
  EXPECT_FALSE(progress.step_passed("42_lesson", "large"));
  EXPECT_TRUE(progress.step_skipped_here("42_lesson", "large"));
  EXPECT_EQ(driver::lesson_progress(progress, lesson), std::make_pair(2, 2));
}

}  // namespace

namespace {

class ProgressFile : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test_fixture::fresh_test_dir("progress"); }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path() const { return (dir_ / "progress.json").string(); }
  std::vector<fs::path> kept() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename().string().rfind("progress.json.corrupt-", 0) == 0)
        out.push_back(e.path());
    return out;
  }
  fs::path dir_;
};

// A corrupt progress file used to be replaced without a word: the student's record was gone.
TEST_F(ProgressFile, ACorruptFileIsKeptAsideAndSaid) {
  // Not JSON, not an object, and JSON of another shape: a field of the wrong type made the grader
  // abort (a fresh student's trial: "attempts": "two" in a quiz, a hint tier as text).
  for (const std::string corrupt :
       {"{\"lessons\": {\"x\": ", "[1, 2]", "{\"lessons\": 3}",
        R"({"lessons": {"01_a": {"hints": {"index_1d": "x"}}}})",
        R"({"lessons": {"01_a": {"quiz": {"attempts": "two", "score": 1, "total": 8}}}})",
        R"({"lessons": {"01_a": {"steps": {"copy": {"passed": "yes"}}}}})",
        R"({"lessons": {"01_a": {"steps": []}}})",
        R"({"lessons": {"01_a": {"quiz": {"predictions": {"q1": {"percent": null}}}}}})",
        R"({"lessons": {"01_a": 7}})"}) {
    SCOPED_TRACE(corrupt);
    for (const fs::path& p : kept()) fs::remove(p);
    std::ofstream(path()) << corrupt;
    driver::Progress progress(path());
    ASSERT_EQ(kept().size(), 1u);
    std::ifstream in(kept()[0]);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), corrupt);
    EXPECT_NE(progress.warning().find("it was kept as " + kept()[0].string()), std::string::npos)
        << progress.warning();
    EXPECT_FALSE(fs::exists(path()));
    progress.set_hints_seen("42_lesson", "step", 1);
    ASSERT_TRUE(progress.save());
    EXPECT_EQ(driver::Progress(path()).hints_seen("42_lesson", "step"), 1);
    EXPECT_EQ(driver::Progress(path()).warning(), "");
    fs::remove(path());
  }
}

TEST_F(ProgressFile, AMissingOrValidFileNeedsNoWord) {
  EXPECT_EQ(driver::Progress(path()).warning(), "");
  std::ofstream(path()) << "{\"lessons\": {}}";
  EXPECT_EQ(driver::Progress(path()).warning(), "");
  EXPECT_TRUE(kept().empty());
  // A file the grader wrote itself, every kind of field in it, reads back without a word.
  {
    driver::Progress p(path());
    p.set_hints_seen("01_a", "copy", 2);
    p.set_quiz_score("01_a", 3, 4, "t0", true);
    p.set_prediction("01_a", "q1", "01_a", "copy", 40, "t0");
    ASSERT_TRUE(p.save());
  }
  EXPECT_EQ(driver::Progress(path()).warning(), "");
  EXPECT_EQ(driver::Progress(path()).hints_seen("01_a", "copy"), 2);
  EXPECT_TRUE(kept().empty());
}

}  // namespace

namespace {

// The course map shows each lesson's quiz score: the honest first attempt, and a better retry as
// one (issue 22, item 9: a replayed seed scored full marks as if at the first try).
TEST(CourseMap, ShowsTheFirstQuizScoreAndABetterRetry) {
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  const course::Lesson* ready = nullptr;
  for (const course::Lesson& l : m.lessons)
    if (l.ready() && !ready) ready = &l;
  ASSERT_TRUE(ready);
  const fs::path p =
      fs::temp_directory_path() / ("grader-map-" + std::to_string(::getpid()) + ".json");
  fs::remove(p);
  driver::Progress progress(p.string());
  EXPECT_EQ(driver::course_map(m, progress, false, "grader").find("quiz "), std::string::npos);
  progress.set_quiz_score(ready->id, 7, 9, "t1", true);
  progress.set_quiz_score(ready->id, 2, 9, "t2", false);
  std::string map = driver::course_map(m, progress, false, "grader");
  const auto line_of = [&](const std::string& text) {
    const auto at = text.find(ready->id);
    return text.substr(at, text.find('\n', at) - at);
  };
  EXPECT_NE(line_of(map).find("· quiz 7/9"), std::string::npos) << map;
  EXPECT_EQ(line_of(map).find("retry"), std::string::npos) << map;
  progress.set_quiz_score(ready->id, 9, 9, "t3", false);
  map = driver::course_map(m, progress, false, "grader");
  EXPECT_NE(line_of(map).find("· quiz 7/9, 9/9 on a retry"), std::string::npos) << map;
}

// Issue 22, item 12: each lesson states its time, and the map shows it (from the manifest).
TEST(CourseMap, ShowsEachReadyLessonsTime) {
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  driver::Progress progress((fs::temp_directory_path() / "grader-map-time-none.json").string());
  const std::string map = driver::course_map(m, progress, false, "grader");
  for (const course::Lesson& l : m.lessons) {
    if (!l.ready()) continue;
    SCOPED_TRACE(l.id);
    EXPECT_GT(l.minutes, 0);
    const auto at = map.find(l.id);
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(map.substr(at, map.find('\n', at) - at).find(fmt::format("{} min", l.minutes)),
              std::string::npos)
        << map;
  }
}

}  // namespace
