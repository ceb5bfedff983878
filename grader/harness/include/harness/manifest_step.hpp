/// @file manifest_step.hpp
/// @brief What the hidden tests read from the course manifest about a step: its gate, its
/// ceiling and its hardware requirement.
#pragma once

#include <optional>
#include <string>

#include "course/manifest.hpp"

namespace harness {

/// The course manifest this binary grades against: $COURSE_MANIFEST, or else the
/// lessons/course.json it was built from. Read once. @throws course::ManifestError.
const course::Manifest& manifest();

/// A step of the manifest. @throws std::runtime_error if `lesson`.`step` is not in it.
const course::Step& manifest_step(const std::string& lesson, const std::string& step);

/// The step's gate (fraction of the ceiling), if it has one. @throws as manifest_step().
std::optional<double> gate_for(const std::string& lesson, const std::string& step);

/// Why this GPU cannot run the step ("needs compute capability 8.0; this GPU is 7.5"), from the
/// step's requirement in the manifest; "" when it can. Tests skip with this reason.
std::string unsupported(const std::string& lesson, const std::string& step);

}  // namespace harness
