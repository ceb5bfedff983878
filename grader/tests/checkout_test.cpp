// Which course a grader works on when its checkout was copied or moved with the build folder
// (driver/checkout.hpp): a fresh student's trial found the copy grading the original's files
// without a word, and the moved one failing on "cannot read the course manifest" with no fix.

#include <gtest/gtest.h>

#include <string>

#include "checkout.hpp"

namespace {

// Whether the message has `words` in it; the whole message when it does not.
::testing::AssertionResult says(const driver::CheckoutProblem& p, const std::string& words) {
  if (p.message.find(words) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "no \"" << words << "\" in:\n" << p.message;
}

TEST(Checkout, AGraderInItsOwnBuildFolderHasNothingToSay) {
  const driver::CheckoutProblem p =
      driver::checkout_problem("/c/build/grader", "/c/build", "/c", true, true);
  EXPECT_TRUE(p.message.empty()) << p.message;
  EXPECT_FALSE(p.fatal);
  EXPECT_TRUE(driver::checkout_problem("", "/c/build", "/c", true, true).message.empty());
  // A folder whose name only begins like the build folder's is not inside it.
  EXPECT_FALSE(
      driver::checkout_problem("/c/build2/grader", "/c/build", "/c", true, true).message.empty());
}

TEST(Checkout, ACopyIsToldItGradesTheOriginal) {
  const driver::CheckoutProblem p =
      driver::checkout_problem("/copy/build/grader", "/orig/build", "/orig", true, true);
  EXPECT_FALSE(p.fatal);
  EXPECT_TRUE(says(p, "works on the course in /orig, not on the copy it runs from (/copy)"));
  EXPECT_TRUE(says(p,
                   "cd /copy && rm -rf build && cmake --preset exercises && cmake --build "
                   "--preset exercises --target grader"));
}

TEST(Checkout, AMovedCheckoutIsAnErrorWithTheFix) {
  const driver::CheckoutProblem p =
      driver::checkout_problem("/new/build-test/grader", "/old/build-test", "/old", false, true);
  EXPECT_TRUE(p.fatal);
  EXPECT_TRUE(says(p, "built for the course in /old, which is not there any more"));
  EXPECT_TRUE(says(p,
                   "cd /new && rm -rf build-test && cmake --preset test && cmake --build "
                   "--preset test"));
  EXPECT_EQ(p.message.find("--target grader"), std::string::npos) << p.message;  // all, for dev
}

// The executable copied alone (into ~/bin, a review found) still works on its course: nothing to
// say, and above all no `rm -rf` of the folder it was copied to; if that course is gone, an error
// without a command to run.
TEST(Checkout, AGraderCopiedAloneIsNoCheckout) {
  EXPECT_TRUE(driver::checkout_problem("/home/u/bin/grader", "/c/build", "/c", true, false)
                  .message.empty());
  const driver::CheckoutProblem gone =
      driver::checkout_problem("/home/u/bin/grader", "/c/build", "/c", false, false);
  EXPECT_TRUE(gone.fatal);
  EXPECT_TRUE(says(gone, "built for the course in /c, which is not there any more"));
  EXPECT_EQ(gone.message.find("rm -rf"), std::string::npos) << gone.message;
}

}  // namespace
