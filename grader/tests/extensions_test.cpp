// What the lessons register from lessons/*/tools/ (course/extensions.hpp): names that cannot
// clash, each for a lesson of the manifest.
#include "course/extensions.hpp"

#include <gtest/gtest.h>

#include <set>

#include "quiz_fixture.hpp"

namespace {

bool is_command_name(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c) || c == '-';
  });
}

TEST(Extensions, ToolsHaveUniqueNamesHelpAndALessonOfTheManifest) {
  const course::Manifest m = test_fixture::manifest();
  std::set<std::string> names;
  for (const course::ext::ToolInfo& tool : course::ext::tools()) {
    SCOPED_TRACE(tool.name);
    EXPECT_TRUE(is_command_name(tool.name));
    EXPECT_TRUE(names.insert(tool.name).second) << "registered twice";
    EXPECT_FALSE(tool.help.empty());
    EXPECT_TRUE(m.find(tool.lesson)) << tool.lesson;
    ASSERT_TRUE(tool.make);
    EXPECT_TRUE(tool.make());
  }
}

TEST(Extensions, QuizKindsAreUniqueAndNotBuiltIn) {
  const course::Manifest m = test_fixture::manifest();
  for (const std::string& name : course::ext::quiz_kind_names()) {
    SCOPED_TRACE(name);
    const course::ext::QuizKindInfo* kind = course::ext::find_quiz_kind(name);
    ASSERT_TRUE(kind) << "registered twice";
    EXPECT_FALSE(name == "choice" || name == "numeric" || name == "prediction");
    EXPECT_TRUE(m.find(kind->lesson)) << kind->lesson;
    EXPECT_TRUE(kind->parse);
  }
}

}  // namespace
