// grader reset never loses a student's work; grader watch re-grades on change.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "course/manifest.hpp"
#include "workflow.hpp"

namespace {

namespace fs = std::filesystem;

class Workflow : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("grader-workflow-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "exercises" / "07_transpose");
    write("// the original stub\n");
    const std::string git = "git -C " + root_.string() + " ";
    ASSERT_EQ(std::system((git + "init -q && " + git + "add -A && " + git +
                           "-c user.name=t -c user.email=t@t commit -qm stub")
                              .c_str()),
              0);
    lesson_.id = "07_transpose";
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path file() const { return root_ / "exercises" / "07_transpose" / "transpose.cu"; }
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
  EXPECT_EQ(reset("no\n", false, true), 1);
  EXPECT_EQ(read(), "// my work\n");
  std::string said;
  EXPECT_EQ(reset("", false, false, &said), 1);  // no terminal, no --yes: refuse
  EXPECT_NE(said.find("Nothing was changed"), std::string::npos);
  EXPECT_EQ(read(), "// my work\n");
}

TEST_F(Workflow, ResetRestoresAndBacksUp) {
  write("// my work\n");
  EXPECT_EQ(reset("yes\n", false, true), 0);
  EXPECT_EQ(read(), "// the original stub\n");
  int backups = 0;
  for (const auto& e : fs::directory_iterator(root_ / ".grader" / "backup" / "07_transpose")) {
    ++backups;
    std::ifstream in(e.path());
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_EQ(s.str(), "// my work\n");
  }
  EXPECT_EQ(backups, 1);
}

TEST_F(Workflow, ResetOfAnUntouchedStubChangesNothing) {
  std::string said;
  EXPECT_EQ(reset("", true, false, &said), 0);
  EXPECT_NE(said.find("already as the course ships it"), std::string::npos);
  EXPECT_FALSE(fs::exists(root_ / ".grader" / "backup"));
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

}  // namespace
