// PROFILE.md's marked blocks and whole-file I/O (bench --write-profile, grader profile, progress).
#include <gtest/gtest.h>

#include <filesystem>

#include "course/text_file.hpp"

namespace {

TEST(MarkedBlock, ReplacesBetweenMarkersAndCanRepeat) {
  std::string doc = "mine\n<!-- bench:stride:begin -->\nold\n<!-- bench:stride:end -->\nmine too\n";
  ASSERT_TRUE(course::replace_marked_block(doc, "bench:stride", "new\n"));
  EXPECT_EQ(doc, "mine\n<!-- bench:stride:begin -->\nnew\n<!-- bench:stride:end -->\nmine too\n");
  ASSERT_TRUE(course::replace_marked_block(doc, "bench:stride", "newer\n"));
  EXPECT_EQ(doc, "mine\n<!-- bench:stride:begin -->\nnewer\n<!-- bench:stride:end -->\nmine too\n");
}

TEST(MarkedBlock, MissingOrReversedMarkersChangeNothing) {
  const std::string reversed = "<!-- x:end -->\n<!-- x:begin -->\n";
  std::string doc = reversed;
  EXPECT_FALSE(course::replace_marked_block(doc, "x", "body"));
  EXPECT_EQ(doc, reversed);
  EXPECT_FALSE(course::replace_marked_block(doc, "y", "body"));
}

TEST(TextFile, AtomicWriteThenRead) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "grader-text-file-test").string();
  std::filesystem::remove_all(dir);
  const std::string path = dir + "/sub/file.txt";
  ASSERT_TRUE(course::write_text_atomically(path, "hello\n"));
  EXPECT_EQ(course::read_text(path).value_or(""), "hello\n");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  EXPECT_FALSE(course::read_text(dir + "/missing").has_value());
  EXPECT_FALSE(course::write_text_atomically(path + "/under-a-file", "z"));  // parent is a file
  std::filesystem::remove_all(dir);
}

}  // namespace
