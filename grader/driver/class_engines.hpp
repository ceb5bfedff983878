// The engines that run a class's tasks (class_task.hpp): `local`, every GPU of this machine, and
// `slurm`, a job array. Neither schedules more than it must: the local engine keeps a fixed number
// of tasks running; Slurm does the rest.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "class_setup.hpp"

namespace driver {

/// The GPUs of this machine, as CUDA_VISIBLE_DEVICES names them: its list when set (empty when
/// set to ""), else the indices `nvidia-smi` lists, else none.
std::vector<std::string> detect_gpus();

/// How the local engine runs.
struct LocalOptions {
  std::vector<std::string> gpus;  ///< one task at a time grades on each
  /// Tasks that build (on the CPUs) while the GPUs grade others: the compile of the next students.
  int prefetch = 1;
  double student_timeout =
      3600;              ///< wall seconds of one student's task, its wait for a GPU included
  std::string work_dir;  ///< work trees
  std::vector<std::string> only;  ///< grade only these students ("" = the whole roster)
  bool status_messages = true;    ///< a line per student on stderr
};

/// Grades every roster row that needs it (needs_grading(): no result graded in full from the
/// submission as it is now, or marked for a regrade), `gpus.size() + prefetch` tasks at a time
/// (at least 2), each `grader class task` in a process group of its own. A task that runs past
/// the time limit is killed, and its row says so. Returns kExitOk, or 130 when interrupted.
int run_local(const ClassDir& dir, const LocalOptions& options);

/// What the generated Slurm job script asks for. The instructor may edit the script
/// (OUT/slurm/grade.sbatch): once written, it is kept.
struct SlurmOptions {
  std::string partition;          ///< "" = the cluster's default
  std::string account;            ///< "" = the user's default
  std::string time = "00:30:00";  ///< per task
  std::string gres = "gpu:1";     ///< "" = ask for no GPU
  int cpus_per_task = 4;
  int max_running = 8;   ///< the array's %K
  int batch = 1;         ///< students per task
  std::string work_dir;  ///< node-local work trees ("" = ${TMPDIR:-/tmp}/grader-class-<tag>)
  bool submit = true;    ///< false: write the script only
  bool wait = false;     ///< return when every task ended
  /// Submit even when a job recorded in OUT/slurm/jobs.json is still queued or running.
  bool force_submit = false;
};

/// The job script (readable, with its #SBATCH lines first).
std::string slurm_job_script(const ClassDir& dir, const ClassSettings& settings,
                             const SlurmOptions& options);

/// "0-3,7,9-10": task indices as an --array list.
std::string array_ranges(const std::vector<int>& indices);

/// Those of `jobs` (job ids) that `squeue` still lists (pending, running, completing);
/// nullopt when squeue does not run.
std::optional<std::vector<std::string>> queued_jobs(const std::vector<std::string>& jobs);

/// Writes OUT/slurm/grade.sbatch when absent and submits the tasks whose students need grading
/// (needs_grading(); of `only` when not empty) (`sbatch --array=LIST%K`), recording the job in
/// OUT/slurm/jobs.json. Returns an exit code; prints the job id and what to do next. @throws
/// ClassError (a usage error) when a job recorded there is still queued or running and
/// `options.force_submit` is not set.
int submit_slurm(const ClassDir& dir, const SlurmOptions& options,
                 const std::vector<std::string>& only);

/// Why students of the roster have no result, as the engines know it: the local engine's notes
/// (OUT/students/<id>/outcome) and, for Slurm jobs, each task's state from sacct (or, without
/// accounting, squeue and the task's log: "DUE TO TIME LIMIT").
std::map<std::string, std::string> why_missing(const ClassDir& dir);

}  // namespace driver
