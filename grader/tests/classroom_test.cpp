// Grading a class: the roster's CSV, the secret's seeds and fingerprint, Slurm's --array list,
// the gradebook row of a report, and the measured file of a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calibrate.hpp"
#include "class_engines.hpp"
#include "class_setup.hpp"
#include "class_task.hpp"
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
  EXPECT_NE(script.find("##SBATCH --account="), std::string::npos);  // not given: commented out
  EXPECT_NE(script.find("#SBATCH --gres=gpu:1\n"), std::string::npos);
  EXPECT_NE(script.find("#SBATCH --time=00:10:00\n"), std::string::npos);
  EXPECT_NE(
      script.find(
          "exec '/opt/course/build/grader' class task '/shared/fall' \"$SLURM_ARRAY_TASK_ID\""),
      std::string::npos);
}

TEST(Calibrate, MeasuredFileOfAGpu) {
  EXPECT_EQ(driver::measured_file_stem("NVIDIA H200"), "H200");
  EXPECT_EQ(driver::measured_file_stem("Tesla T4"), "Tesla-T4");
  EXPECT_EQ(driver::measured_file_stem("NVIDIA GeForce RTX 4090"), "RTX-4090");
}

}  // namespace
