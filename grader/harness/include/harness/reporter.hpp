/// @file reporter.hpp
/// @brief The GoogleTest listener that writes the report file of course/protocol.hpp, and the
/// process-level records (device, no GPU).
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace harness {

/// Properties recorded by the running test (harness::record), emptied at each test start.
nlohmann::json& current_properties();

/// Appends one JSON record as a line and flushes it to the OS at once, so it survives a crash.
class ReportFile {
 public:
  explicit ReportFile(const std::string& path);  ///< "" = write nothing
  ~ReportFile();
  /// Writes `record` as one line of compact JSON (invalid UTF-8 replaced) and flushes; does
  /// nothing when the file could not be opened or the path was "".
  void write(const nlohmann::json& record);

 private:
  std::FILE* file_ = nullptr;
};

/// Whether test `full_name` ("<suite>.<name>", e.g. "registers/Correct.n_1000003") failed
/// earlier in this process (Reporter::OnTestEnd keeps the list).
bool failed_in_this_process(const std::string& full_name);

/// Whether a correctness case ("<step>/Correct.*" or "<step>/CorrectLast.*") of `step` failed
/// earlier in this process. Correctness cases run before the timed and profiled tests
/// (lesson.hpp; but for the few "CorrectLast" cases, which run after them), so those know by
/// then whether the step's kernel was found wrong. A fresh process after a sticky error starts
/// with no failures: there the timed test checks the kernel on the timing shape as before.
bool step_failed_correctness(const std::string& step);

namespace detail {
/// Keeps the end of test `suite`.`name` for failed_in_this_process() and
/// step_failed_correctness(): what Reporter::OnTestEnd does with every test (and the unit tests
/// with made-up ones).
void note_test_end(const std::string& suite, const std::string& name, bool failed);
}  // namespace detail

/// In a timed test of `step`: when a correctness case of the step failed in this process, fails
/// the test with "not timed" and the reason, and returns true (the caller returns). Such a
/// kernel is not checked on the timing shape either: that check's failure path built the
/// messages' host copies of GiB-sized inputs (1.5 s for 06's soa_update stub on our H200,
/// docs/measured/H200.md, nineteenth session), and the step fails whatever it finds.
bool not_timed_after_failed_cases(const std::string& step);

/// Writes start/end records per test; after a test that lost the CUDA context (sticky error,
/// hung kernel) it writes a "fatal" record and ends the process with kExitContextLost.
class Reporter : public ::testing::EmptyTestEventListener {
 public:
  /// Reports to `file`, which must outlive the reporter.
  explicit Reporter(ReportFile& file) : file_(file) {}
  /// Clears the properties and messages of the previous test, writes {"event":"start"}.
  void OnTestStart(const ::testing::TestInfo& info) override;
  /// Keeps the message of each assertion result (failures and skips) for the "end" record.
  void OnTestPartResult(const ::testing::TestPartResult& result) override;
  /// Writes {"event":"end"} with status, time (ms), messages and recorded properties; if the
  /// CUDA context was lost, also {"event":"fatal"}, then exits with kExitContextLost.
  void OnTestEnd(const ::testing::TestInfo& info) override;

 private:
  ReportFile& file_;
  std::vector<std::string> messages_;
};

}  // namespace harness
