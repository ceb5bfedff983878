// Grading one roster row of a class: its submission's exercises/ files taken into a work tree (a
// clean course, built once and compiled again only where the files differ), the lessons graded
// there, and the student's reports and gradebook row written to OUT/students/<id>/. Every engine
// runs this, so a row is the same whichever engine graded it. One file per job:
// class_submission.hpp (what a submission gives), class_work_tree.hpp (the work trees and the
// GPU a task takes), class_row.hpp (the gradebook rows and the student's files); class_task.cpp
// puts them together.
#pragma once

#include <string>
#include <vector>

#include "class_setup.hpp"
#include "course/manifest.hpp"

namespace driver {

/// How a task runs (engine-specific; nothing here changes a row).
struct TaskOptions {
  std::string work_dir;  ///< where work trees live (node-local disk under Slurm)
  /// GPUs the local engine shares among its tasks (each task takes one, in turn, for the GPU part
  /// only); empty = use what the environment gives (Slurm's CUDA_VISIBLE_DEVICES).
  std::vector<std::string> gpus;
  int batch = 1;         ///< roster rows per task index
  bool regrade = false;  ///< grade rows that already have a result
};

/// Grades the roster rows of task `index` (rows index*batch .. index*batch+batch-1 of
/// OUT/roster.csv) that have no current row. Returns an exit code: 0 when each has its row now;
/// kExitUsage for an index past the roster or a secret that is not the class's; kExitInternal
/// when a work tree cannot be set up.
int run_class_task(const ClassDir& dir, int index, const TaskOptions& options,
                   const course::Manifest& manifest);

}  // namespace driver
