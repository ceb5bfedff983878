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

/// Restores the lesson's stub files (the names solutions/<id>/ mirrors) as the course first
/// shipped them (the git commit that added each), after the student confirms, keeping each
/// current file in <state>/backup/<id>/<file>.<timestamp>[-n] (never overwritten). The student's
/// own extra files are left alone. Never overwrites without a "yes" (typed, or --yes). Returns 0
/// done, declined, or nothing to do; 2 without a terminal and without --yes, or outside a git
/// checkout; 5 when the course's history lacks the original.
int run_reset(const course::Lesson& lesson, const std::string& source_dir,
              const std::string& state_dir, const ResetOptions& options);

/// Re-runs `grade` whenever a file of exercises/<id>/ changes: woken by file events (inotify)
/// where the file system delivers them, and in any case by comparing modification times every
/// `interval` seconds (the fallback for network and some WSL mounts). Stops after `max_runs`
/// gradings when max_runs > 0 (for tests); otherwise runs until interrupted.
int run_watch(const course::Lesson& lesson, const std::string& source_dir, double interval,
              int max_runs, const std::function<int()>& grade);

}  // namespace driver
