// What `grader LESSON[.STEP] ... [--all]` grades: each lesson and step once, in the order asked
// (`grader 07 07` used to grade, and time, the lesson twice).
#include "selection.hpp"

#include <gtest/gtest.h>

#include "quiz_fixture.hpp"

namespace {

std::vector<std::string> names(const std::vector<course::Selection>& selections) {
  std::vector<std::string> out;
  for (const course::Selection& s : selections)
    out.push_back(s.lesson->id + (s.step ? "." + s.step->name : ""));
  return out;
}

class Selection : public ::testing::Test {
 protected:
  void SetUp() override {
    manifest_ = test_fixture::manifest();
    for (const course::Lesson& l : manifest_.lessons)
      if (l.ready() && l.steps.size() >= 2) ready_.push_back(&l);
    ASSERT_GE(ready_.size(), 2u) << "two ready lessons with two steps each";
  }
  std::vector<std::string> select(const std::vector<std::string>& targets, bool all = false) {
    return names(driver::select_lessons(manifest_, targets, all, "grader"));
  }
  course::Manifest manifest_;
  std::vector<const course::Lesson*> ready_;
};

TEST_F(Selection, EachLessonAndStepOnceInTheOrderAsked) {
  const course::Lesson& a = *ready_[0];
  const course::Lesson& b = *ready_[1];
  const std::string a_step = a.id + "." + a.steps[0].name, b_step = b.id + "." + b.steps[1].name;
  EXPECT_EQ(select({b.id, b.short_name(), std::to_string(b.number())}),
            std::vector<std::string>{b.id});
  EXPECT_EQ(select({b_step, a.id, b_step}), (std::vector<std::string>{b_step, a.id}));
  // A step and then its whole lesson: the lesson, where the step was.
  EXPECT_EQ(select({a_step, b.id, a.id}), (std::vector<std::string>{a.id, b.id}));
  EXPECT_EQ(select({a.id, a_step}), std::vector<std::string>{a.id});
  const std::string a_other = a.id + "." + a.steps[1].name;
  EXPECT_EQ(select({a_step, a_other}), (std::vector<std::string>{a_step, a_other}));
  const std::vector<std::string> every = select({}, true);
  EXPECT_EQ(select({b_step, a.id}, true), every);
}

TEST_F(Selection, PlannedAndUnknownLessonsAreUsageErrors) {
  EXPECT_THROW(select({"nosuchlesson"}), course::UsageError);
  // Added after ready_ was filled: push_back may move the lessons.
  manifest_.lessons.push_back(test_fixture::planned_lesson());
  ready_.clear();
  try {
    select({"16"});
    ADD_FAILURE() << "a planned lesson was selected";
  } catch (const course::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("planned but not written yet"), std::string::npos)
        << e.what();
  }
}

}  // namespace
