// Grading a class: the settings every engine's tasks share (OUT/class.json), the class folder's
// layout, the secret seed and the clean copy of the course the submissions are graded against.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "roster.hpp"

namespace driver {

/// A class that cannot be graded as asked (a usage error: exit code 2).
struct ClassError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Where a class's files are: everything under one folder, OUT.
struct ClassDir {
  std::string root;  ///< OUT
  std::string settings() const { return root + "/class.json"; }
  std::string roster() const { return root + "/roster.csv"; }          ///< the roster as graded
  std::string course_archive() const { return root + "/course.tar"; }  ///< the clean course
  std::string student(const std::string& id) const { return root + "/students/" + id; }
  std::string locks() const { return root + "/locks"; }
  std::string slurm() const { return root + "/slurm"; }
};

/// What every task of a class grades with, written once by `grader class grade` (class.json).
/// Never the secret: only where to read it and its fingerprint.
struct ClassSettings {
  std::vector<std::string> lessons;  ///< lesson ids, in course order
  bool quick = false;  ///< `grader class --quick`: GradeOptions::make_quick() for every grade
  double test_timeout = 120;                ///< the grader's --timeout
  double kernel_timeout = 10;               ///< the grader's --kernel-timeout
  std::string course_origin;                ///< what the course archive was made from, for people
  std::string course_fingerprint;           ///< SHA-256 of course.tar
  std::string cmake;                        ///< the cmake that configures the work trees
  std::vector<std::string> configure_args;  ///< -G, -D... for the work trees' build
  std::string secret_file;                  ///< where the secret is read ("" = environment)
  std::string seed_fingerprint;             ///< secret_fingerprint() of the secret
  std::string grader;                       ///< this grader's path: what the tasks run

  nlohmann::json to_json() const;
  /// @throws ClassError when `j` is not a class.json this grader wrote.
  static ClassSettings from_json(const nlohmann::json& j);
  /// Reads OUT/class.json. @throws ClassError when it is missing or unreadable.
  static ClassSettings load(const ClassDir& dir);
};

/// The environment variable that may hold the class secret.
inline constexpr const char* kSecretVariable = "GRADER_CLASS_SECRET";

/// The class secret: the file's content (a trailing line break dropped) when `secret_file` is
/// given, else $GRADER_CLASS_SECRET. @throws ClassError when there is none, it cannot be read, or
/// it is shorter than 16 characters (a short secret could be guessed from its fingerprint).
std::string read_secret(const std::string& secret_file);

/// SHA-256 of `data`, in hex (coreutils' sha256sum). @throws ClassError when it cannot run.
std::string sha256_hex(const std::string& data);

/// The fingerprint a gradebook records for the secret: 12 hex digits of a SHA-256 of it, which
/// tell two secrets apart without giving either away.
std::string secret_fingerprint(const std::string& secret);

/// The seed `student`'s inputs are drawn from: derived from the secret and the student (a
/// student who sees their own seed learns nothing of the secret or of another's seed); never 0.
unsigned long long student_seed(const std::string& secret, const std::string& student);

/// Writes the clean course to `archive`: `git archive HEAD` of `source_dir` when it is a git
/// checkout (the committed course, whatever is edited in the working tree), else a tar of the
/// folder without build trees, .git and .grader. Returns what it was made from ("git HEAD 1a2b3c4
/// of /path"); fills `warning` when the working tree has uncommitted changes outside exercises/.
/// @throws ClassError when neither works.
std::string write_course_archive(const std::string& source_dir, const std::string& archive,
                                 std::string& warning);

/// The CMake arguments that configure a work tree like `binary_dir` (this grader's build): its
/// generator, build type, compilers and CUDA architectures (`architectures` overrides them when
/// not ""), the dependencies it downloaded, and the student's configuration (no solutions, no
/// dev targets).
std::vector<std::string> work_tree_configure_args(const std::string& binary_dir,
                                                  const std::string& architectures);

/// The lessons `specs` name (ids, numbers or names, as the grader takes them), in course order;
/// every ready lesson when `specs` is empty. @throws ClassError for a lesson that is unknown or
/// not ready.
std::vector<std::string> class_lessons(const course::Manifest& manifest,
                                       const std::vector<std::string>& specs);

}  // namespace driver
