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

// The steps with a correctness case that failed in this process (they run before the others).
std::set<std::string>& steps_failed_correctness() {
  static std::set<std::string> steps;
  return steps;
}
}  // namespace

void Reporter::OnTestStart(const ::testing::TestInfo& info) {
  // Timed and profiled tests wait here for the GPU to themselves (quiet_gpu.hpp). Under --quick
  // (compute-sanitizer's runs) nothing is timed or profiled: those tests skip, sharing the GPU.
  // The speed test ("<step>/Speed") of a step that already failed a correctness case in this
  // process does not wait here: its first check on the timing shape is not timed, and a wrong
  // kernel is never timed (lesson.cpp); had that check passed, run_speed() and run_host_speed()
  // wait before they time. So the grade of a step that fails in the first hidden-test process
  // need not wait for the memcheck run beside its tests, which the grader then stops (grade.cpp).
  // Profiled tests always wait: Nsight Compute's replays need the GPU alone whatever the step.
  const std::string suite = info.test_suite_name();
  const bool speed_of_failed_step =
      suite.size() > 6 && suite.compare(suite.size() - 6, 6, "/Speed") == 0 &&
      steps_failed_correctness().count(course::protocol::step_of(full_name(info))) > 0;
  if (!runs_beside_other_work(suite) && !quick() && !speed_of_failed_step) wait_for_quiet_gpu();
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
  if (status == course::TestStatus::failed && runs_beside_other_work(info.test_suite_name()))
    steps_failed_correctness().insert(course::protocol::step_of(full_name(info)));
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
