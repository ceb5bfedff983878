// compute-sanitizer: where it is (or why there is none to run) and what it printed.
#pragma once

#include <string>
#include <vector>

#include "grade_options.hpp"

namespace driver {

/// What compute-sanitizer printed: its error count (summed over processes) and first lines.
struct SanitizerFindings {
  int errors = 0;
  std::vector<std::string> first_lines;
};
SanitizerFindings sanitizer_findings(const std::string& log);

/// compute-sanitizer: $GRADER_COMPUTE_SANITIZER when set (as it is, for instructors and tests),
/// else the one of the build's toolkit (next to nvcc, or in the toolkit's compute-sanitizer/
/// folder), in /usr/local/cuda/bin or on PATH; "" if none.
std::string find_sanitizer();

/// compute-sanitizers installed where find_sanitizer() does not look: other toolkits' bin/
/// folders (/usr/local/cuda-*/bin, /opt/cuda/bin, /opt/nvidia/*/bin).
std::vector<std::string> other_sanitizers();

/// Why there is no compute-sanitizer to run, with the two cases told apart: installed elsewhere
/// (the first of `elsewhere`: put its folder on PATH or name it in GRADER_COMPUTE_SANITIZER) or
/// not installed at all (the toolkit in `toolkit_bin`, the folder of the build's nvcc, has none:
/// install it; PATH is not the problem). No final full stop: callers go on.
std::string missing_sanitizer_reason(const std::string& toolkit_bin,
                                     const std::vector<std::string>& elsewhere);

/// The compute-sanitizer grading runs: GradeOptions::sanitizer, else find_sanitizer(). Returns ""
/// and fills `why` (a sentence for the report) when there is none or it is not executable.
std::string usable_sanitizer(const GradeOptions& options, std::string& why);

}  // namespace driver
