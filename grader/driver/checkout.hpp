// Which course a grader works on: the folders it was configured in (course/config.hpp), checked
// against where it runs from, so that a copied or moved checkout is named, with the fix.
#pragma once

#include <string>

namespace driver {

/// What is wrong when a grader runs outside the build folder it was made in.
struct CheckoutProblem {
  std::string message;  ///< "" when nothing is wrong
  bool fatal = false;   ///< the course it was built for is gone: nothing can be graded
};

/// `executable` is the grader's own path, symlinks resolved (/proc/self/exe); `binary_dir` and
/// `source_dir` the folders it was configured with; `manifest_found` whether source_dir's
/// lessons/course.json can be read. Outside binary_dir, a grader still works on source_dir: a
/// copy of a checkout (`cp -a`) grades the original's exercises/ (a note), and a checkout that was
/// moved or renamed has nothing there (fatal). Both messages say how to build a grader for the
/// folder it runs from (its build folder deleted and configured again with the preset named like
/// it: build/ exercises, build-solutions/ solutions, build-test/ test), since CMake refuses a
/// build folder made for another path.
CheckoutProblem checkout_problem(const std::string& executable, const std::string& binary_dir,
                                 const std::string& source_dir, bool manifest_found);

}  // namespace driver
