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
  void write(const nlohmann::json& record);

 private:
  std::FILE* file_ = nullptr;
};

/// Writes start/end records per test; after a test that lost the CUDA context (sticky error,
/// hung kernel) it writes a "fatal" record and ends the process with kExitContextLost.
class Reporter : public ::testing::EmptyTestEventListener {
 public:
  explicit Reporter(ReportFile& file) : file_(file) {}
  void OnTestStart(const ::testing::TestInfo& info) override;
  void OnTestPartResult(const ::testing::TestPartResult& result) override;
  void OnTestEnd(const ::testing::TestInfo& info) override;

 private:
  ReportFile& file_;
  std::vector<std::string> messages_;
};

}  // namespace harness
