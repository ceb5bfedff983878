// A scratch folder for one test: unique to the process and the running test, emptied first.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace test_fixture {

/// <tmp>/grader-<prefix>-<pid>-<test name>/, created empty. Remove it in TearDown.
inline std::filesystem::path fresh_test_dir(const std::string& prefix) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("grader-" + prefix + "-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace test_fixture
