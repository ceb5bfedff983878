/// @file manifest.hpp
/// @brief The course manifest (lessons/course.json): the single source of lesson order, titles,
/// steps, gates, hints, requirements and the deliberately wrong kernels the grader must reject.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace course {

/// A manifest that cannot be read or does not have the expected shape.
struct ManifestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A lesson or step name the user typed that matches nothing (the message lists what exists).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Speed gate of a step: the student's effective bandwidth must reach this fraction of the
/// lesson's copy ceiling, measured in the same run (see grader/harness/include/harness/timing.cuh).
struct Gate {
  double fraction_of_ceiling = 0;  ///< 0..1, e.g. 0.85 = 85% of the ceiling
};

/// One graded step of a lesson (e.g. 07_transpose.tiled_padded).
struct Step {
  std::string name;                ///< identifier, also the hidden tests' prefix: "<name>/..."
  std::string title;               ///< one line for the report
  std::optional<Gate> gate;        ///< no value: correctness only
  std::vector<std::string> hints;  ///< tiers: nudge, idea, what to change
  bool optional = false;           ///< an extension: not needed to pass the lesson
  std::string requires_cc;         ///< minimum compute capability "major.minor", empty = lesson's
};

/// A deliberately wrong submission kept as a grader test (grader/wrong/<lesson>/<name>.cu).
struct WrongKernel {
  std::string name;       ///< file stem and build variant name
  std::string step;       ///< the step it is graded as
  std::string diagnosis;  ///< text the grader's report must contain when it fails
  std::string what;       ///< what is wrong with it, for people
};

/// One lesson of the course.
struct Lesson {
  std::string id;  ///< "NN_snake_name"
  std::string title;
  std::string summary;
  int stage = 0;
  std::string status;          ///< "ready" (text, stub, solution, tests exist) or "planned"
  std::string min_cc;          ///< minimum compute capability, "major.minor"
  std::string ceiling_kernel;  ///< name of the copy-rung kernel the gates are measured against
  std::string ceiling_what;    ///< one line: what the ceiling kernel does
  std::vector<Step> steps;
  std::vector<WrongKernel> wrong_kernels;

  bool ready() const { return status == "ready"; }
  int number() const;              ///< 7 for "07_transpose"
  std::string short_name() const;  ///< "transpose" for "07_transpose"
  const Step* find_step(const std::string& name) const;
  std::vector<const Step*> required_steps() const;  ///< steps that are not optional
};

struct Stage {
  int number = 0;
  std::string title;
};

/// The whole course, in order.
struct Manifest {
  int schema = 0;
  std::string course;
  std::string version;
  std::vector<Stage> stages;
  std::vector<Lesson> lessons;

  /// Reads and parses `path`. @throws ManifestError with the path and the problem.
  static Manifest load(const std::string& path);
  /// Parses manifest JSON text; `origin` names it in error messages.
  static Manifest parse(const std::string& text, const std::string& origin);

  const Lesson* find(const std::string& id) const;
  /// Consistency problems (duplicate ids, bad id format, unknown steps of wrong kernels, gates
  /// outside (0, 1], missing hints, ...), one message each; empty when the manifest is sane.
  std::vector<std::string> problems() const;
};

/// What a user asked to grade: a lesson, and optionally one step of it.
struct Selection {
  const Lesson* lesson = nullptr;
  const Step* step = nullptr;  ///< nullptr = every step of the lesson
};

/// Resolves "07_transpose", "07", "7", "transpose" (any of them optionally followed by ".step")
/// to a lesson and step. @throws UsageError naming the closest lessons or the lesson's steps.
Selection resolve(const Manifest& manifest, const std::string& spec);

}  // namespace course
