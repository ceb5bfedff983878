// `grader dev calibrate`: every gate's margins on this GPU, from dev check's grading of the
// solutions and the wrong kernels, repeated.
#pragma once

#include <string>

#include "course/manifest.hpp"
#include "grade.hpp"

namespace driver {

struct CalibrateOptions {
  std::string lesson;  ///< "" = every ready lesson
  int repeat = 3;      ///< runs of each solution and wrong kernel
  bool write = false;  ///< also write the table into docs/measured/<GPU>.md
};

/// The points (of the ceiling) under which a gate's margin is flagged (docs/INSTRUCTORS.md,
/// "Calibrating on a new GPU").
inline constexpr double kMinMarginPoints = 5;

/// For every gated step: the solution's lowest fraction of the ceiling over the runs, the nearest
/// wrong kernel graded as that step (the highest fraction among them) and both margins to the
/// gate, flagged when under kMinMarginPoints or when the solution or a "below the gate" wrong
/// kernel gave no figure (its target missing, or caught before timing). Prints a Markdown table;
/// with `write`, puts it between <!-- calibration:begin --> and <!-- calibration:end --> of
/// docs/measured/<GPU>.md (appended with a heading when the file has none). Returns 0, 1 when a
/// margin is flagged, 2 for an unknown lesson or one without a speed gate (nothing is written), 3
/// without a GPU or without the test configuration's variants.
int dev_calibrate(const course::Manifest& manifest, const CalibrateOptions& options,
                  GradeOptions grade_options);

/// The file name docs/measured/ gives a GPU: "NVIDIA H200" -> "H200", "Tesla T4" -> "Tesla-T4".
std::string measured_file_stem(const std::string& gpu_name);

}  // namespace driver
