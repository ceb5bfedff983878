/// @file manifest.hpp
/// @brief The course manifest (lessons/course.json): the single source of lesson order, titles,
/// steps, gates, hints, requirements and the deliberately wrong kernels the grader must reject.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

/// The grader's GPU-free core: manifest, statistics and gate decisions, reports, simulator.
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
/// step's ceiling, measured in the same run (see grader/harness/include/harness/timing.hpp).
struct Gate {
  double fraction_of_ceiling = 0;  ///< 0..1, e.g. 0.85 = 85% of the ceiling
};

/// What a step's speed is measured against (docs/INSTRUCTORS.md, "Adding a ceiling kind"). Always
/// timed on this GPU, in the same run, interleaved with the student's kernel; never a constant.
struct Ceiling {
  /// "copy": the copy rung, a copy kernel of the step's geometry (steps that read and write);
  /// "read": the read rung, the best read-only kernel of the same geometry (steps that only read,
  /// such as a reduction); "library": the call a professional would make for the same job (CUB,
  /// cuBLAS, cudaMemcpy), run in the same process; "rung": for steps bound by the SM rather than by
  /// DRAM (arithmetic, shared memory), the course's kernel doing the same work with the same
  /// geometry minus the lesson's hazard (e.g. every warp on one branch, conflict-free shared rows).
  std::string kind = "copy";
  std::string
      kernel;  ///< name printed next to the figure, e.g. "copy_tiled", "cub::DeviceReduce::Sum"
  std::string what;  ///< one line: what it does and how it differs from the student's kernel

  /// Ratio (student / ceiling) above which a result is rejected as impossible: 1.05 for the copy,
  /// read and compute rungs (nothing that does the whole job beats a copy of the same shape, or the
  /// same work without the hazard, by more than noise); 1.5 for a library ceiling, which a
  /// specialised kernel may beat by a little.
  double impossible_above() const;
};

/// The ceiling kinds a manifest may name.
inline constexpr const char* kCeilingKinds[] = {"copy", "read", "library", "rung"};

/// One graded step of a lesson (e.g. 07_transpose.tiled_padded).
struct Step {
  std::string name;                ///< identifier, also the hidden tests' prefix: "NAME/..."
  std::string title;               ///< one line for the report
  std::optional<Gate> gate;        ///< no value: correctness only
  std::vector<std::string> hints;  ///< tiers: nudge, idea, what to change
  bool optional = false;           ///< an extension: not needed to pass the lesson
  std::string requires_cc;         ///< minimum compute capability "major.minor", empty = lesson's
  Ceiling ceiling;                 ///< the step's own "ceiling", else the lesson's
};

/// A deliberately wrong submission kept as a grader test (grader/lessons/LESSON/wrong/NAME.cu).
struct WrongKernel {
  std::string name;       ///< file stem and build variant name
  std::string step;       ///< the step it is graded as
  std::string diagnosis;  ///< text the grader's report must contain when it fails
  std::string what;       ///< what is wrong with it, for people
  std::string
      sanitize;  ///< "" = graded normally; else the compute-sanitizer tool that must catch it
};

/// One lesson of the course.
struct Lesson {
  std::string id;       ///< "NN_snake_name"
  std::string title;    ///< one line, e.g. "Transpose through shared memory"
  std::string summary;  ///< one sentence for the course map
  /// Time the lesson takes, in minutes ("minutes"; the "about N minutes" its README states, which
  /// dev check compares); 0 = not stated.
  int minutes = 0;
  int stage = 0;                       ///< number of the Stage the lesson belongs to
  std::string status;                  ///< "ready" (text, stub, solution, tests exist) or "planned"
  std::string min_cc;                  ///< minimum compute capability, "major.minor"
  std::vector<std::string> libraries;  ///< toolkit libraries the lesson links: "cublas"
  /// CUDA runtime functions the lesson's own code wraps at link time ("link_wraps"; GNU ld
  /// --wrap=NAME: every call of NAME in the lesson's executables reaches __wrap_NAME, which the
  /// lesson's launch code defines and which calls __real_NAME), so that its hidden tests can count
  /// what a student's host code creates and destroys (lesson 14: streams, pinned buffers).
  std::vector<std::string> link_wraps;
  /// The student writes host code in this lesson ("student_host_code": a launcher, a host
  /// function the course calls). false: the student's files hold device code only, and a build
  /// for one architecture compiles them device-only and loads them at run time
  /// (cmake/CourseDeviceImage.cmake), which would leave host code out.
  bool student_host_code = false;
  std::vector<Step> steps;                 ///< graded steps, in the order they are taught
  std::vector<WrongKernel> wrong_kernels;  ///< the grader's own tests for this lesson
  std::string profile_table;    ///< `bench --table` that launches this lesson's kernels ("" = none)
  std::string profile_kernels;  ///< regex selecting them for `ncu --kernel-name regex:`

  /// True when the lesson can be graded (status "ready").
  bool ready() const { return status == "ready"; }
  int number() const;              ///< 7 for "07_transpose"
  std::string short_name() const;  ///< "transpose" for "07_transpose"; also its C++ namespace
  /// The step called `name`, or nullptr when the lesson has none.
  const Step* find_step(const std::string& name) const;
  std::vector<const Step*> required_steps() const;  ///< steps that are not optional
};

/// A stage of the course: a group of lessons (1 = grid, block, warp, lane; ...).
struct Stage {
  int number = 0;     ///< 1, 2, ...; lessons refer to it by this number
  std::string title;  ///< e.g. "Execution model and memory"
};

/// The whole course, in order.
struct Manifest {
  int schema = 0;               ///< manifest format version; this grader reads 1
  std::string course;           ///< the course's title
  std::string version;          ///< the course's version, e.g. "0.1.0"
  std::vector<Stage> stages;    ///< stages, in order
  std::vector<Lesson> lessons;  ///< every lesson, planned ones included, in course order

  /// Reads and parses `path`. @throws ManifestError with the path and the problem.
  static Manifest load(const std::string& path);
  /// Parses manifest JSON text; `origin` names it in error messages.
  /// @throws ManifestError when the text is not JSON, its schema is not 1, or a required field
  /// is missing or of the wrong type.
  static Manifest parse(const std::string& text, const std::string& origin);

  /// The lesson whose id is exactly `id` ("07_transpose"; no short forms), or nullptr.
  const Lesson* find(const std::string& id) const;
  /// Consistency problems (duplicate ids, bad id format, unknown steps of wrong kernels, gates
  /// outside (0, 1], missing hints, ...), one message each; empty when the manifest is sane.
  std::vector<std::string> problems() const;
};

/// Whether `id` has the form of a lesson id: two digits, '_', then lower-case letters, digits
/// and '_' ("07_transpose").
bool is_lesson_id(const std::string& id);

/// Whether compute capability `have` ("9.0") reaches `need` ("8.0"); an empty `need` always does.
/// Versions compare as (major, minor) numbers, so "10.0" is above "9.0".
bool cc_at_least(const std::string& have, const std::string& need);

/// What a user asked to grade: a lesson, and optionally one step of it.
struct Selection {
  const Lesson* lesson = nullptr;  ///< the lesson (never nullptr after resolve())
  const Step* step = nullptr;      ///< nullptr = every step of the lesson
};

/// Resolves "07_transpose", "07", "7", "transpose" (any of them optionally followed by ".step")
/// to a lesson and step. @throws UsageError naming the closest lessons or the lesson's steps.
Selection resolve(const Manifest& manifest, const std::string& spec);

}  // namespace course
