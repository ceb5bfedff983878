// Child processes of the grader: the build (captured) and the hidden tests (watched).
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace driver {

/// Output and exit status of a command run to completion.
struct Captured {
  int exit_code = -1;  ///< -1 if it could not be started or was killed by a signal
  std::string output;  ///< stdout and stderr together
};

/// Runs `argv` (argv[0] looked up on PATH) in `cwd` ("" = current) and captures its output.
/// `input`, when given, is written to its standard input (else it reads an empty one); meant for
/// commands that read all their input before they write much, such as `sha256sum`.
Captured run_capture(const std::vector<std::string>& argv, const std::string& cwd = "",
                     const std::string* input = nullptr);

/// A hidden-test process to run under watch.
struct WatchedChild {
  std::vector<std::string> argv;
  std::string report_path;    ///< the JSON-lines report file the child appends to
  std::string log_path;       ///< its stdout and stderr go here (appended)
  double test_timeout = 120;  ///< seconds one test may run (from its "start" record)
  double idle_timeout = 60;   ///< seconds before the first record / between tests
  /// Says once on stderr when the child has waited 3 s for another hidden-test process on the
  /// machine.
  bool say_when_waiting_on_machine = false;
  /// When set and it becomes true, the child's whole group is killed (checked every 20 ms): the
  /// grade that started it no longer needs its results (memcheck beside tests that found no GPU,
  /// broke down, or passed no step).
  const std::atomic<bool>* stop = nullptr;
  /// When set, the child counts as exited once its report holds the "exit" record
  /// (course/protocol.hpp): its group is killed then and reaped later, without waiting for the
  /// CUDA context's teardown (about 0.1 s of every grade on our H200, more with page-locked
  /// memory to free: docs/measured/H200.md, twenty-sixth session). Not for a child whose own
  /// output after that record matters (compute-sanitizer's summary, when it wraps the tests).
  bool done_at_exit_record = false;
};

/// How a watched child ended.
struct ChildEnd {
  bool exited = false;  ///< exited normally (see code)
  int code = -1;
  int signal = 0;          ///< terminating signal, if any
  bool timed_out = false;  ///< the grader killed it (see timed_out_test)
  bool stopped = false;    ///< killed because WatchedChild::stop became true
  std::string timed_out_test;
  double seconds = 0;
};

/// Starts `argv` (argv[0] looked up on PATH) in a process group of its own (so that killing the
/// group reaches everything it started), stdin from /dev/null, stdout and stderr appended to
/// `log_path`. Returns its pid (also its group's id), or -1 when it could not be started.
int start_in_own_group(const std::vector<std::string>& argv, const std::string& log_path);

/// Starts the child in its own process group, watches its report file and kills the whole group
/// when one test runs past `test_timeout`, nothing happens for `idle_timeout` seconds, or
/// `stop` becomes true (ChildEnd::stopped); with `done_at_exit_record`, also once the report
/// says the child is done (then ChildEnd::exited and the record's code, as if it had exited).
ChildEnd run_watched(const WatchedChild& child);

/// Waits for the test processes that run_watched() killed once their report said they were done
/// (WatchedChild::done_at_exit_record, note_ended_test_process()) to be gone, and reaps them;
/// each is waited for until 5 s after its kill at most, over all calls (a teardown that hangs in
/// the driver costs that once). Called before any GPU work that comes after them in this grader
/// (run_watched() does), so that it starts only once their CUDA contexts and locks are released,
/// as when the grader still waited for each process's end. A grader that ends after its last test
/// process does not wait. Thread-safe.
void wait_for_ended_test_processes();

/// Adds `pid`, a child of this process in the middle of its end, to those that
/// wait_for_ended_test_processes() waits for and reaps. Thread-safe.
void note_ended_test_process(int pid);

/// Human words for how a child ended ("killed by signal 11 (Segmentation fault)").
std::string describe(const ChildEnd& end);

/// The absolute path of the running grader executable (/proc/self/exe), or `fallback` when it
/// cannot be read: what the class tasks run, and where `grader` finds grader-instructor.
std::string this_grader(const std::string& fallback);

}  // namespace driver
