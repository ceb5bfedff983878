// `grader profile LESSON`: Nsight Compute on the lesson's kernels (through the lab bench), the
// lab's metrics per kernel and a generated verdict line for each.
#pragma once

#include <string>

#include "course/manifest.hpp"
#include "grade.hpp"

namespace driver {

struct ProfileOptions {
  std::string write_profile;  ///< "" or a PROFILE.md whose profile:verdicts block is replaced
};

/// Returns 0 when metrics were collected, 1 when the profiler could not read counters (timing is
/// still printed), 2 when the lesson has nothing to profile, 3 without a GPU or without ncu, 4
/// when the bench does not build.
int run_profile(const course::Lesson& lesson, const GradeOptions& grade_options,
                const ProfileOptions& options);

}  // namespace driver
