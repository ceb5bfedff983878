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
/// lessons/course.json can be read; `in_a_checkout` whether the executable's folder is a build
/// folder of a course (a CMakeCache.txt in it, lessons/course.json beside it). Outside
/// binary_dir, a grader still works on source_dir: run from a copy of a checkout (`cp -a`) it
/// grades the original's exercises/ (a note), from a checkout that was moved or renamed it finds
/// nothing there (fatal). Both messages say how to build a grader for the folder it runs from (its
/// build folder deleted and configured again with the preset named like it: build/ exercises,
/// build-solutions/ solutions, build-test/ test), since CMake refuses a build folder made for
/// another path. The executable copied alone (into ~/bin) still works on its course: nothing to
/// say, unless that course is gone (fatal, without a command to run).
CheckoutProblem checkout_problem(const std::string& executable, const std::string& binary_dir,
                                 const std::string& source_dir, bool manifest_found,
                                 bool in_a_checkout);

/// The preset of CMakePresets.json that makes a build folder of this name (its binaryDir):
/// build-solutions solutions, build-test test, anything else exercises (build/ of the students'
/// presets; `native` and `colab-t4` make build/ too, so a message says "unless you chose another").
std::string preset_of_build_folder(const std::string& folder);

/// Whether `executable`'s folder is a build folder of a course checkout: it holds CMakeCache.txt,
/// and its parent lessons/course.json.
bool in_a_checkout(const std::string& executable);

}  // namespace driver
