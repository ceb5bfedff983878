// Student workflow commands: `grader reset LESSON` and `grader watch LESSON`.
#pragma once

#include <functional>
#include <iostream>
#include <string>

#include "course/manifest.hpp"

namespace driver {

struct ResetOptions {
  bool yes = false;  ///< --yes: do not ask
  std::istream* in = &std::cin;
  std::ostream* out = &std::cout;
  bool interactive = true;  ///< stdin is a terminal: asking is possible
};

/// Restores the lesson's stub files as this checkout of the course shipped them, after the
/// student confirms. "Shipped" is the stub as of the newest commit in HEAD's history that changed
/// a course-owned file of the lesson besides the stub (lessons/<id>/, solutions/<id>/,
/// grader/lessons/<id>/): students commit their work in exercises/ only, so
/// that commit is the course's, with or without an upstream, in a fork, a clone or a copy of a
/// template repository, and however many commits of their own sit on top. The stub's files are
/// exercises/<id>/* of that commit; other files in the folder are the student's and stay. A file
/// already equal to the stub is left alone (and said so). Each file replaced is first copied to
/// <state>/backup/<id>/<file>.<timestamp>[-n] (never overwritten). Never writes without a "yes"
/// (typed, or --yes). Returns 0 done, declined, or nothing to do; 2 without a terminal and
/// without --yes, or outside a git checkout; 5 when the history has no stub for the lesson.
int run_reset(const course::Lesson& lesson, const std::string& source_dir,
              const std::string& state_dir, const ResetOptions& options);

/// Re-runs `grade` whenever a file of exercises/<id>/ changes: woken by file events (inotify)
/// where the file system delivers them, and in any case by comparing modification times every
/// `interval` seconds (the fallback for network and some WSL mounts). Stops after `max_runs`
/// gradings when max_runs > 0 (for tests); otherwise runs until interrupted.
int run_watch(const course::Lesson& lesson, const std::string& source_dir, double interval,
              int max_runs, const std::function<int()>& grade);

}  // namespace driver
