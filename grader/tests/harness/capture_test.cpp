// harness/capture.hpp without a GPU: standard output is captured from every writer (C stdio,
// C++ streams, the raw descriptor), restored after the capture and after an exception, and
// printed lines compare as a multiset with messages that name what went wrong.
#include "harness/capture.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// What reaches descriptor 1 while `body` runs, read through an outer capture.
std::string outer(const std::function<void()>& body) {
  harness::StdoutCapture capture;
  body();
  return capture.finish();
}

TEST(StdoutCapture, TakesEveryWriterAndRestores) {
  std::string inner;
  const std::string around = outer([&] {
    std::printf("before ");  // buffered: must not leak into the inner capture
    {
      harness::StdoutCapture capture;
      std::printf("stdio\n");
      std::cout << "stream\n";
      const char raw[] = "raw\n";
      ASSERT_EQ(write(STDOUT_FILENO, raw, sizeof raw - 1), static_cast<ssize_t>(sizeof raw - 1));
      inner = capture.finish();
      EXPECT_EQ(capture.finish(), "");  // a second call returns nothing
    }
    std::printf("after\n");  // standard output is back
  });
  // All three, whole; C stdio's buffer reaches the file at finish(), after the raw write.
  std::vector<std::string> lines = harness::split_lines(inner);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"raw", "stdio", "stream"}));
  EXPECT_EQ(inner.size(), std::string("stdio\nstream\nraw\n").size());
  EXPECT_EQ(around, "before after\n");
}

TEST(StdoutCapture, RestoresWhenTheLaunchThrows) {
  const std::string around = outer([] {
    EXPECT_THROW(harness::capture_device_output([] {
                   std::printf("lost\n");
                   throw std::runtime_error("launch failed");
                 }),
                 std::runtime_error);
    std::printf("still here\n");
  });
  // What was printed before the exception went to the discarded file, not to standard output.
  EXPECT_EQ(around, "still here\n");
}

TEST(StdoutCapture, LargeOutputIsReadBackWhole) {
  std::string expected;
  for (int i = 0; i < 20000; ++i)
    expected += "block " + std::to_string(i / 7) + " thread " + std::to_string(i % 7) + " global " +
                std::to_string(i) + "\n";
  harness::StdoutCapture capture;
  for (int i = 0; i < 20000; ++i) std::printf("block %d thread %d global %d\n", i / 7, i % 7, i);
  const std::string text = capture.finish();
  EXPECT_EQ(text.size(), expected.size());
  EXPECT_TRUE(text == expected);
}

TEST(CompareLines, SplitsTrimsAndDropsEmptyLines) {
  EXPECT_EQ(harness::split_lines("a\r\n\n  b \t\nc"), (std::vector<std::string>{"a", "  b", "c"}));
  EXPECT_TRUE(harness::split_lines("").empty());
}

TEST(CompareLines, OrderDoesNotMatter) {
  const std::vector<std::string> want = {"block 0 thread 0 global 0", "block 1 thread 0 global 1"};
  const harness::LineDiff d =
      harness::compare_lines(want, "block 1 thread 0 global 1\nblock 0 thread 0 global 0\n");
  EXPECT_TRUE(d.ok());
  EXPECT_EQ(harness::describe(d), "");
}

TEST(CompareLines, NamesNothingPrinted) {
  const harness::LineDiff d = harness::compare_lines({"x 0", "x 1"}, "");
  EXPECT_FALSE(d.ok());
  EXPECT_EQ(harness::describe(d), "printed nothing, expected 2 lines such as \"x 0\"");
}

TEST(CompareLines, NamesRepeatedMissingAndUnexpected) {
  const harness::LineDiff d =
      harness::compare_lines({"a", "b", "c", "d"}, "a\na\nb\nzz\nzz\nb\nb\n");
  EXPECT_EQ(d.printed, 7u);
  ASSERT_EQ(d.missing.size(), 2u);  // c and d
  EXPECT_EQ(d.missing_count(), 2u);
  ASSERT_EQ(d.repeated.size(), 2u);  // a twice, b three times
  EXPECT_EQ(d.repeated[1], (std::pair<std::string, std::size_t>{"b", 3}));
  ASSERT_EQ(d.unexpected.size(), 1u);
  EXPECT_EQ(d.unexpected[0].second, 2u);
  const std::string text = harness::describe(d, 1);
  EXPECT_TRUE(contains(text, "printed 7 lines, expected 4")) << text;
  EXPECT_TRUE(contains(text, "2 of 4 expected lines never printed (e.g. \"c\" and 1 more)"))
      << text;
  EXPECT_TRUE(contains(text, "2 lines printed more than once (e.g. \"a\" 2 times and 1 more)"))
      << text;
  EXPECT_TRUE(contains(text, "1 line not expected at all (e.g. \"zz\" 2 times)")) << text;
}

TEST(CompareLines, LongLinesAreCut) {
  const std::string glued(5000, 'x');
  const std::string text = harness::describe(harness::compare_lines({"x"}, glued + "\n"));
  EXPECT_TRUE(contains(text, "\"" + std::string(100, 'x') + "...\" (5000 characters)")) << text;
  EXPECT_LT(text.size(), 400u);
}

TEST(CompareLines, ExpectedRepeatsAreCounted) {
  // A line expected twice and printed once is missing once, not fine.
  const harness::LineDiff d = harness::compare_lines({"same", "same"}, "same\n");
  ASSERT_EQ(d.missing.size(), 1u);
  EXPECT_EQ(d.missing[0].second, 1u);
  EXPECT_TRUE(d.repeated.empty());
}

}  // namespace
