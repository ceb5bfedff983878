// Grading a class: the roster's CSV, the secret's seeds and fingerprint, Slurm's --array list,
// the gradebook row of a report, and the measured file of a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "calibrate.hpp"
#include "class_engines.hpp"
#include "class_row.hpp"
#include "class_setup.hpp"
#include "class_submission.hpp"
#include "course/config.hpp"
#include "course/report.hpp"
#include "gradebook.hpp"
#include "quiz_fixture.hpp"
#include "roster.hpp"
#include "test_dir.hpp"

namespace {

namespace fs = std::filesystem;

TEST(Csv, QuotedFieldsCommasQuotesAndLineBreaks) {
  const auto rows = driver::parse_csv("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\n\"two\nlines\",,x\n");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b,c", "say \"hi\""}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"two\nlines", "", "x"}));
  EXPECT_THROW(driver::parse_csv("\"open"), driver::RosterError);
  EXPECT_EQ(driver::csv_line({"plain", "with,comma", "q\"uote"}),
            "plain,\"with,comma\",\"q\"\"uote\"\n");
  EXPECT_EQ(driver::parse_csv(driver::csv_line({"x,y", "z"})).front(),
            (std::vector<std::string>{"x,y", "z"}));
}

std::string roster_file(const std::string& text) {
  const fs::path p = test_fixture::fresh_test_dir("classroom") / "roster.csv";
  std::ofstream(p) << text;
  return p.string();
}

TEST(Roster, ColumnsByNameRelativePathsAndRef) {
  const std::string path =
      roster_file("name,student,submission,ref\nAda,ada,subs/ada,\nBo,bo,/abs/bo,main\n");
  const auto entries = driver::read_roster(path);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].student, "ada");
  EXPECT_EQ(entries[0].submission, (fs::path(path).parent_path() / "subs/ada").string());
  EXPECT_EQ(entries[0].ref, "");
  EXPECT_EQ(entries[1].submission, "/abs/bo");
  EXPECT_EQ(entries[1].ref, "main");
}

TEST(Roster, ExcelsByteOrderMarkAndHeaderCaseAreAccepted) {
  const auto entries =
      driver::read_roster(roster_file("\xEF\xBB\xBFStudent, SUBMISSION ,Ref\r\nada,/a,main\r\n"));
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].student, "ada");
  EXPECT_EQ(entries[0].submission, "/a");
  EXPECT_EQ(entries[0].ref, "main");
}

TEST(Roster, MistakesAreNamedWithTheirLine) {
  auto message = [](const std::string& text) {
    try {
      driver::read_roster(roster_file(text));
    } catch (const driver::RosterError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("who,where\na,b\n").find("must name the columns student and submission"),
            std::string::npos);
  EXPECT_NE(message("student,submission\na,x\na,y\n").find("line 3: student a is listed twice"),
            std::string::npos);
  EXPECT_NE(message("student,submission\n../up,x\n").find("cannot name a folder"),
            std::string::npos);
  EXPECT_NE(message("student,submission\nok,\n").find("has no submission"), std::string::npos);
}

TEST(Secret, SeedsDifferPerStudentAndFingerprintHidesTheSecret) {
  const std::string secret = "0123456789abcdef-secret";
  EXPECT_EQ(driver::student_seed(secret, "ada"), driver::student_seed(secret, "ada"));
  EXPECT_NE(driver::student_seed(secret, "ada"), driver::student_seed(secret, "bo"));
  EXPECT_NE(driver::student_seed(secret, "ada"), driver::student_seed(secret + "x", "ada"));
  const std::string fp = driver::secret_fingerprint(secret);
  EXPECT_EQ(fp.size(), 12u);
  EXPECT_EQ(fp.find(secret), std::string::npos);
  EXPECT_NE(fp, driver::secret_fingerprint(secret + "x"));
}

TEST(Secret, TooShortOrMissingIsAUsageError) {
  const fs::path p = test_fixture::fresh_test_dir("classroom") / "short.secret";
  std::ofstream(p) << "short\n";
  EXPECT_THROW(driver::read_secret(p.string()), driver::ClassError);
  EXPECT_THROW(driver::read_secret((p.parent_path() / "absent").string()), driver::ClassError);
}

TEST(Slurm, ArrayRangesCompressRuns) {
  EXPECT_EQ(driver::array_ranges({0, 1, 2, 3, 7, 9, 10}), "0-3,7,9-10");
  EXPECT_EQ(driver::array_ranges({5}), "5");
  EXPECT_EQ(driver::array_ranges({}), "");
}

TEST(Slurm, JobScriptIsReadableAndAsksForWhatWasGiven) {
  driver::ClassSettings s;
  s.grader = "/opt/course/build/grader";
  driver::SlurmOptions o;
  o.partition = "gpu";
  o.time = "00:10:00";
  const std::string script = driver::slurm_job_script({"/shared/fall"}, s, o);
  EXPECT_NE(script.find("#SBATCH --partition=gpu\n"), std::string::npos);
  // Not given: commented out, the directive line clean (sbatch rejects any text after it).
  EXPECT_NE(script.find("\n##SBATCH --account=my-course\n"), std::string::npos);
  EXPECT_NE(script.find("remove one # from it:\n##SBATCH --account"), std::string::npos);
  std::istringstream lines(script);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("#SBATCH", 0) == 0 || line.rfind("##SBATCH", 0) == 0)
      EXPECT_EQ(std::count(line.begin(), line.end(), ' '), 1) << line;
  EXPECT_NE(script.find("#SBATCH --gres=gpu:1\n"), std::string::npos);
  EXPECT_NE(script.find("#SBATCH --time=00:10:00\n"), std::string::npos);
  EXPECT_NE(
      script.find(
          "exec '/opt/course/build/grader' class task '/shared/fall' \"$SLURM_ARRAY_TASK_ID\""),
      std::string::npos);
}

// A class folder with one student's row.json, as a task would write it for `intake`.
void write_row(const driver::ClassDir& dir, const driver::ClassSettings& s,
               const std::string& status, const driver::Intake& intake) {
  fs::create_directories(dir.student("ada"));
  const nlohmann::json row = {
      {"key", driver::settings_key(s)},
      {"status", status},
      {"submission", {{"fingerprint", intake.fingerprint}, {"commit", intake.commit}}}};
  std::ofstream(dir.student("ada") + "/row.json") << row.dump();
}

TEST(Resume, RegradesRowsNotGradedInFullChangedSubmissionsAndMarkedOnes) {
  const fs::path root = test_fixture::fresh_test_dir("classroom");
  fs::create_directories(root / "course");
  fs::create_directories(root / "ada/exercises/01_x");
  std::ofstream(root / "ada/exercises/01_x/k.cu") << "v1";
  const driver::ClassDir dir{(root / "out").string()};
  driver::ClassSettings s;
  s.lessons = {"01_x"};
  const driver::RosterEntry ada{"ada", (root / "ada").string(), ""};
  auto intake = [&](const driver::RosterEntry& e) {
    return driver::take_submission(e, s.lessons, (root / "course").string(),
                                   (root / "scratch").string());
  };
  EXPECT_TRUE(driver::needs_grading(dir, ada, s));  // no row yet
  write_row(dir, s, "graded", intake(ada));
  EXPECT_FALSE(driver::needs_grading(dir, ada, s));
  for (const char* status : {"incomplete", "not_graded"}) {  // no GPU, a missing folder: retried
    write_row(dir, s, status, intake(ada));
    EXPECT_TRUE(driver::needs_grading(dir, ada, s)) << status;
  }
  write_row(dir, s, "graded", intake(ada));
  driver::mark_for_regrade(dir, "ada");  // --regrade, --only ada
  EXPECT_TRUE(driver::needs_grading(dir, ada, s));
  fs::remove(dir.student("ada") + "/" + driver::kRegradeMark);
  std::ofstream(root / "ada/exercises/01_x/k.cu") << "v2";  // a late edit
  EXPECT_TRUE(driver::needs_grading(dir, ada, s));
  write_row(dir, s, "graded", intake(ada));
  EXPECT_FALSE(driver::needs_grading(dir, ada, s));
  s.quick = true;  // other settings
  EXPECT_TRUE(driver::needs_grading(dir, ada, s));
}

TEST(Resume, AGitSubmissionIsGradedAgainWhenItsRefMoves) {
  const fs::path root = test_fixture::fresh_test_dir("classroom");
  fs::create_directories(root / "course");
  const std::string repo = (root / "repo").string();
  fs::create_directories(repo + "/exercises/01_x");
  std::ofstream(repo + "/exercises/01_x/k.cu") << "v1";
  const std::string git = "git -c user.name=t -c user.email=t@t -C " + repo + " ";
  ASSERT_EQ(
      std::system(
          (git + "init -q -b submitted && " + git + "add -A && " + git + "commit -qm one").c_str()),
      0);
  const driver::ClassDir dir{(root / "out").string()};
  driver::ClassSettings s;
  s.lessons = {"01_x"};
  const driver::RosterEntry ada{"ada", repo, "submitted"};
  const driver::Intake first = driver::take_submission(ada, s.lessons, (root / "course").string(),
                                                       (root / "scratch").string());
  ASSERT_EQ(first.error, "");
  EXPECT_EQ(first.commit.size(), 40u);
  write_row(dir, s, "graded", first);
  EXPECT_FALSE(driver::needs_grading(dir, ada, s));
  ASSERT_EQ(std::system((git + "commit -q --allow-empty -m two").c_str()), 0);
  EXPECT_TRUE(driver::needs_grading(dir, ada, s));
}

TEST(Calibrate, MeasuredFileOfAGpu) {
  EXPECT_EQ(driver::measured_file_stem("NVIDIA H200"), "H200");
  EXPECT_EQ(driver::measured_file_stem("Tesla T4"), "Tesla-T4");
  EXPECT_EQ(driver::measured_file_stem("NVIDIA GeForce RTX 4090"), "RTX-4090");
}

// A lesson without a speed gate has nothing to calibrate: a usage error, and no table written
// (an instructor's trial got exit 0 and a docs/measured/unknown-GPU.md with no GPU in it).
TEST(Calibrate, ALessonWithoutAGateIsAUsageErrorAndWritesNothing) {
  if (!course::config::kDevTargets) GTEST_SKIP() << "a build without the dev targets stops first";
  const course::Manifest m = test_fixture::manifest();
  const course::Lesson* ungated = nullptr;
  for (const course::Lesson& l : m.lessons)
    if (l.ready() && !ungated &&
        std::none_of(l.steps.begin(), l.steps.end(),
                     [](const course::Step& s) { return s.gate.has_value(); }))
      ungated = &l;
  if (!ungated) GTEST_SKIP() << "every ready lesson has a gate";
  driver::CalibrateOptions o;
  o.lesson = ungated->id;
  o.write = true;
  EXPECT_EQ(driver::dev_calibrate(m, o, driver::GradeOptions{}), course::kExitUsage);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(course::config::kSourceDir) / "docs" /
                                       "measured" / "unknown-GPU.md"));
}

}  // namespace

// A row's reason for a failed step is what the first failure says, so that the class summary
// groups students by their mistake (the first H200 demo grouped "# of # hidden tests failed").
TEST(Gradebook, RowReasonIsTheFirstFailure) {
  const course::Manifest m = test_fixture::manifest();
  const course::Lesson* lesson = nullptr;
  for (const course::Lesson& l : m.lessons)
    if (l.ready() && l.steps.size() >= 2 && !lesson) lesson = &l;
  ASSERT_NE(lesson, nullptr);
  course::LessonReport l;
  l.id = lesson->id;
  l.status = course::LessonStatus::fail;
  course::StepReport failed;
  failed.name = lesson->steps[0].name;
  failed.status = course::StepStatus::fail;
  failed.reason = "3 of 3 hidden tests failed";
  failed.problems.push_back(
      {"a/C.n_7", course::TestStatus::failed, {"out[7]: expected 7, got 0\nand more"}, {}, 0});
  course::StepReport slow;  // as build_steps makes it: the one problem is the speed test
  slow.name = lesson->steps[1].name;
  slow.status = course::StepStatus::fail;
  slow.reason = "correct, but not fast enough";
  slow.problems.push_back({"b/S.t/timed",
                           course::TestStatus::failed,
                           {"too slow, below the gate: 2310 GB/s against a ceiling of 3961 GB/s"},
                           {},
                           0});
  course::StepReport skipped;  // no failure to quote: the step's own reason
  skipped.name = lesson->steps[0].name;
  skipped.status = course::StepStatus::skipped;
  skipped.reason = "this GPU has too little memory";
  l.steps = {failed, slow};
  course::Report report;
  report.lessons.push_back(l);
  driver::ClassSettings s;
  s.lessons = {lesson->id};
  const nlohmann::json row = driver::graded_row(driver::RosterEntry{"ada", "/nowhere", ""}, s, m,
                                                report, driver::Intake{}, {});
  EXPECT_EQ(row["steps"][lesson->id + "." + failed.name]["reason"], "out[7]: expected 7, got 0");
  EXPECT_EQ(row["steps"][lesson->id + "." + slow.name]["reason"],
            "too slow, below the gate: 2310 GB/s against a ceiling of 3961 GB/s");
  l.steps = {skipped};
  course::Report skipped_report;
  skipped_report.lessons.push_back(l);
  const nlohmann::json skipped_row = driver::graded_row(driver::RosterEntry{"ada", "/nowhere", ""},
                                                        s, m, skipped_report, driver::Intake{}, {});
  EXPECT_EQ(skipped_row["steps"][lesson->id + "." + skipped.name]["reason"],
            "this GPU has too little memory");
}

// The summary shows what went wrong, not which case, seed or element it went wrong on, keeps the
// lesson's advice (it tells two mistakes apart), and groups the students whose headlines differ
// only in figures (the H200 class demo printed "ids_#d on # block of # thread, seed #:
// thread_idx: # of # elements wrong ... expecte", cut mid-word).
TEST(Gradebook, SummaryDiagnosesAreHeadlinesGroupedByWording) {
  const std::string a =
      "ids_1d on 1 block of 1 thread, seed 52: thread_idx: 1 of 1 elements wrong (1 never "
      "written); first mismatch at thread_idx[0] (block 0 thread 0): expected 0, got 7";
  const std::string b =
      "ids_1d on 3 blocks of 64 threads, seed 9: thread_idx: 150 of 192 elements wrong (150 never "
      "written); first mismatch at thread_idx[2] (block 0 thread 2): expected 2, got 0 (never "
      "written)";
  EXPECT_EQ(driver::diagnosis_headline(a), "thread_idx: 1 of 1 elements wrong (1 never written)");
  EXPECT_EQ(driver::diagnosis_headline(b),
            "thread_idx: 150 of 192 elements wrong (150 never written)");
  EXPECT_EQ(driver::diagnosis_group(driver::diagnosis_headline(a)),
            driver::diagnosis_group(driver::diagnosis_headline(b)));
  const std::string advised =
      "ids_1d on 2 blocks of 64 threads, seed 4: lane: 64 of 128 elements wrong; first mismatch "
      "at lane[64] (block 1 thread 0): expected 0, got 64 This looks like the global index.";
  EXPECT_EQ(driver::diagnosis_headline(advised),
            "lane: 64 of 128 elements wrong This looks like the global index.");
  EXPECT_NE(driver::diagnosis_group(driver::diagnosis_headline(advised)),
            driver::diagnosis_group("lane: 1 of 128 elements wrong"));
  EXPECT_EQ(driver::diagnosis_group("hung for 25 s"), driver::diagnosis_group("hung for 25.3 s"));
  EXPECT_EQ(driver::diagnosis_group("1,234 GB/s"), driver::diagnosis_group("934 GB/s"));
  // A seed quoted inside a longer message is not a case prefix: memcheck's failure stays one.
  const std::string memcheck =
      "compute-sanitizer memcheck reported no error, but under it 1 test that passed without it "
      "failed (first: ids_1d on 1 block, seed 3: out: 1 of 1 elements wrong)";
  EXPECT_EQ(driver::diagnosis_headline(memcheck).rfind("compute-sanitizer memcheck", 0), 0u);
  // A reason without a case keeps its start; a long one is cut at a word, and '|' or a control
  // character cannot break the Markdown table; an empty one says so.
  EXPECT_EQ(driver::diagnosis_headline("correct, but not fast enough"),
            "correct, but not fast enough");
  const std::string cut = driver::diagnosis_headline(std::string(30, 'x') + " a|b\r " +
                                                     std::string(110, 'y') + " tail");
  EXPECT_EQ(cut, std::string(30, 'x') + " a/b ...");
  EXPECT_EQ(driver::diagnosis_headline(""), "(no reason given)");
}
