/// @file status.hpp
/// @brief The outcomes the grader deals in, as enums: a hidden test's result, a step's and a
/// lesson's status, the default grade's memcheck stage and its finding on a step, and a speed
/// gate's verdict. The grader compares these; their words (in the test protocol, the progress
/// file, the `--json`, JUnit, Gradescope and text reports) come from to_string() and are read back
/// with parse_status(), both defined once, in status.cpp.
#pragma once

#include <optional>
#include <string_view>

namespace course {

/// The result of one hidden test (protocol::TestRecord::status). The test process reports the
/// first three; the grader infers the others.
enum class TestStatus {
  passed,     ///< "passed": ran, and every check held
  failed,     ///< "failed": ran, and a check failed
  skipped,    ///< "skipped": skipped itself, saying why (too little memory, a shape --quick
              ///< leaves out, a GPU too old for it)
  crashed,    ///< "crashed": its process ended in the middle of it
  timed_out,  ///< "timed_out": no result within the test's time limit: the grader stopped it
  not_run,    ///< "not_run": never ran (its step's kernels hung too long, or it never reported)
};

/// The outcome of one step (StepReport::status).
enum class StepStatus {
  pass,     ///< "pass": every hidden test passed, its gate held and memcheck (if run) was clean
  fail,     ///< "fail": a test failed, crashed, hung or was too slow, or memcheck found errors
  skipped,  ///< "skipped": every test of the step skipped itself: this machine cannot grade it
};

/// The outcome of one lesson (LessonReport::status).
enum class LessonStatus {
  pass,          ///< "pass": every step graded passed (or was excused)
  fail,          ///< "fail": a step failed
  build_failed,  ///< "build_failed": the lesson's code did not compile or link
  no_gpu,        ///< "no_gpu": no usable GPU here (or no CUDA compiler)
  unavailable,   ///< "unavailable": a tool the run needs (compute-sanitizer) cannot run here
  unsupported,   ///< "unsupported": the GPU is older than the lesson's minimum compute
                 ///< capability, or the build folder's device images are for another GPU
  error,         ///< "error": the grader itself could not work (manifest, build tree, protocol)
};

/// True for the lesson statuses that mean this machine could not grade it (no_gpu, unavailable,
/// unsupported): nothing is wrong with the code, and the exit code is 3 (course::kExitNoGpu).
bool not_gradable_here(LessonStatus status);

/// True for the lesson statuses under which no step was graded: not_gradable_here(), a build that
/// failed, or an error of the grader.
bool graded_no_step(LessonStatus status);

/// The default grade's memcheck stage for one lesson (LessonReport::memcheck).
enum class LessonMemcheck {
  none,         ///< "" (left out of --json): the run had no such stage (--sanitize, or nothing
                ///< was graded)
  ran,          ///< "ran": on the steps that passed their tests and gate
  not_needed,   ///< "not_needed": no step passed
  skipped,      ///< "skipped": --quick
  unavailable,  ///< "unavailable": compute-sanitizer was not found
  failed,       ///< "failed": compute-sanitizer did not run the tests
};

/// What the default grade's memcheck stage found on one step (StepReport::memcheck).
enum class StepMemcheck {
  none,          ///< "" (left out of --json): the run had no memcheck stage (--sanitize)
  clean,         ///< "clean": no errors on the step's small shapes
  errors,        ///< "errors": memcheck reported errors: the step fails
  tests_failed,  ///< "tests_failed": no error reported, but tests that passed without memcheck
                 ///< failed under it: the step fails
  not_run,       ///< "not_run": the step had failed already, or the stage did not run
                 ///< (LessonReport::memcheck says why)
};

/// Outcome of a speed gate: pass (at or above the gate, or no gate), fail (below it), or
/// impossible (a median ratio above kImpossibleRatio: faster than the copy ceiling allows,
/// rejected).
enum class Verdict {
  pass,        ///< "pass"
  fail,        ///< "fail"
  impossible,  ///< "impossible"
};

/// The word for a value in every file and report the grader writes (the quoted word of each
/// value's comment above; "" for none).
const char* to_string(TestStatus status);
/// @copydoc to_string(TestStatus)
const char* to_string(StepStatus status);
/// @copydoc to_string(TestStatus)
const char* to_string(LessonStatus status);
/// @copydoc to_string(TestStatus)
const char* to_string(LessonMemcheck memcheck);
/// @copydoc to_string(TestStatus)
const char* to_string(StepMemcheck memcheck);
/// @copydoc to_string(TestStatus)
const char* to_string(Verdict verdict);

/// The value whose to_string() is `word`, or no value for a word that is none of them. Defined for
/// every enum of this header.
template <class Status>
std::optional<Status> parse_status(std::string_view word);

}  // namespace course
