#include "harness/reporter.hpp"

#include <cstdlib>
#include <set>

#include "course/protocol.hpp"
#include "harness/cuda_check.hpp"
#include "harness/quiet_gpu.hpp"
#include "harness/record.hpp"

namespace harness {

nlohmann::json& current_properties() {
  static nlohmann::json p = nlohmann::json::object();
  return p;
}

ReportFile::ReportFile(const std::string& path) {
  if (!path.empty()) file_ = std::fopen(path.c_str(), "a");
}

ReportFile::~ReportFile() {
  if (file_) std::fclose(file_);
}

void ReportFile::write(const nlohmann::json& record) {
  if (!file_) return;
  const std::string line =
      record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

namespace {
std::string full_name(const ::testing::TestInfo& info) {
  return std::string(info.test_suite_name()) + "." + info.name();
}

// The tests that failed in this process ("<suite>.<name>").
std::set<std::string>& failed_tests() {
  static std::set<std::string> tests;
  return tests;
}
}  // namespace

void detail::note_test_end(const std::string& suite, const std::string& name, bool failed) {
  if (failed) failed_tests().insert(suite + "." + name);
}

bool failed_in_this_process(const std::string& full_name) {
  return failed_tests().count(full_name) > 0;
}

bool step_failed_correctness(const std::string& step) {
  for (const std::string& test : failed_tests())
    if (course::protocol::step_of(test) == step &&
        runs_beside_other_work(test.substr(0, test.find('.'))))
      return true;
  return false;
}

bool not_timed_after_failed_cases(const std::string& step) {
  if (!step_failed_correctness(step)) return false;
  ADD_FAILURE() << "not timed: correctness cases of " << step
                << " failed (above), and a wrong kernel is never timed; it is timed once they pass";
  return true;
}

void Reporter::OnTestStart(const ::testing::TestInfo& info) {
  // Tests other than correctness cases wait here for the GPU to themselves (quiet_gpu.hpp), but
  // for those that wait themselves once they know they need it (set_waits_itself(): the timed
  // tests and lesson 15's profiled one, which fail at once, using no GPU, when their step's
  // cases failed, so that such a grade need not wait for the memcheck run beside its tests).
  // Under --quick (compute-sanitizer's runs) nothing is timed or profiled: those tests skip.
  const std::string suite = info.test_suite_name();
  if (!runs_beside_other_work(suite) && !waits_itself(suite) && !quick()) wait_for_quiet_gpu();
  current_properties() = nlohmann::json::object();
  messages_.clear();
  file_.write({{"event", "start"}, {"test", full_name(info)}});
}

void Reporter::OnTestPartResult(const ::testing::TestPartResult& result) {
  if (!result.message() || !*result.message()) return;
  std::string m = result.message();
  if (m.rfind("Failed\n", 0) == 0) m.erase(0, 7);  // ADD_FAILURE()'s prefix says nothing
  messages_.push_back(m);
}

void Reporter::OnTestEnd(const ::testing::TestInfo& info) {
  const ::testing::TestResult* r = info.result();
  const course::TestStatus status = r->Skipped()  ? course::TestStatus::skipped
                                    : r->Failed() ? course::TestStatus::failed
                                                  : course::TestStatus::passed;
  detail::note_test_end(info.test_suite_name(), info.name(), status == course::TestStatus::failed);
  file_.write({{"event", "end"},
               {"test", full_name(info)},
               {"status", course::to_string(status)},
               {"ms", static_cast<double>(r->elapsed_time())},
               {"failures", messages_},
               {"properties", current_properties()}});
  if (!context_lost().empty()) {
    file_.write({{"event", "fatal"}, {"test", full_name(info)}, {"reason", context_lost()}});
    std::fflush(nullptr);
    std::_Exit(course::protocol::kExitContextLost);
  }
}

}  // namespace harness
