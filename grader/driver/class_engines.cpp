#include "class_engines.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join (in format.h before fmt 11)

#include "class_row.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

volatile std::sig_atomic_t interrupted = 0;
extern "C" void note_interrupt(int) {
  interrupted = 1;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, sep);) {
    while (!item.empty() && (item.back() == ' ' || item.back() == '\r')) item.pop_back();
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// Roster rows (indices) to grade (needs_grading()), of `only` when not empty, grouped as tasks
// of `batch` rows.
std::vector<int> pending_tasks(const ClassDir& dir, int batch,
                               const std::vector<std::string>& only) {
  const ClassSettings s = ClassSettings::load(dir);
  const std::vector<RosterEntry> roster = read_roster(dir.roster());
  std::vector<int> tasks;
  for (std::size_t i = 0; i < roster.size(); ++i) {
    const int task = static_cast<int>(i) / batch;
    if ((only.empty() || std::find(only.begin(), only.end(), roster[i].student) != only.end()) &&
        needs_grading(dir, roster[i], s) && (tasks.empty() || tasks.back() != task))
      tasks.push_back(task);
  }
  return tasks;
}

// Says why nothing is to be graded.
void say_nothing_to_grade(std::FILE* to) {
  fmt::print(to,
             "nothing to grade: every student has a result graded in full with these settings "
             "from their submission as it is now (--regrade grades everyone again, --only ID "
             "one student)\n");
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::vector<std::string> detect_gpus() {
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) return split(visible, ',');
  const Captured c = run_capture({"nvidia-smi", "--query-gpu=index", "--format=csv,noheader"});
  return c.exit_code == 0 ? split(c.output, '\n') : std::vector<std::string>{};
}

int run_local(const ClassDir& dir, const LocalOptions& o) {
  const ClassSettings s = ClassSettings::load(dir);
  const std::vector<RosterEntry> roster = read_roster(dir.roster());
  const std::vector<int> todo = pending_tasks(dir, 1, o.only);
  const std::size_t slots =
      std::max<std::size_t>(2, o.gpus.size() + static_cast<std::size_t>(o.prefetch));
  struct Running {
    int pid;
    int index;
    std::chrono::steady_clock::time_point started;
  };
  std::vector<Running> running;
  std::size_t next = 0, done = 0;
  struct sigaction catch_it {
  }, old_int{}, old_term{};
  catch_it.sa_handler = note_interrupt;
  sigaction(SIGINT, &catch_it, &old_int);
  sigaction(SIGTERM, &catch_it, &old_term);
  interrupted = 0;
  if (o.status_messages)
    fmt::print(stderr, "grading {} of {} students on {} ({} tasks at a time) ...\n", todo.size(),
               roster.size(),
               o.gpus.empty() ? std::string("no GPU")
                              : "GPUs " + fmt::format("{}", fmt::join(o.gpus, ",")),
               slots);
  if (o.status_messages && todo.empty()) say_nothing_to_grade(stderr);
  while ((next < todo.size() || !running.empty()) && !interrupted) {
    while (next < todo.size() && running.size() < slots) {
      const int index = todo[next++];
      const std::string student_dir = dir.student(roster[index].student);
      fs::create_directories(student_dir);
      fs::remove(student_dir + "/outcome");
      std::vector<std::string> argv = {s.grader, "class",   "task", dir.root, std::to_string(index),
                                       "--work", o.work_dir};
      if (!o.gpus.empty())
        argv.insert(argv.end(), {"--gpus", fmt::format("{}", fmt::join(o.gpus, ","))});
      const int pid = start_in_own_group(argv, student_dir + "/task.log");
      running.push_back({pid, index, std::chrono::steady_clock::now()});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      const std::string& student = roster[it->index].student;
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - it->started).count();
      std::string outcome;
      if (waitpid(it->pid, &status, WNOHANG) == it->pid) {
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
          outcome = fmt::format("its grading task ended with {} (see students/{}/task.log)",
                                WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status))
                                                  : fmt::format("signal {}", WTERMSIG(status)),
                                student);
      } else if (seconds > o.student_timeout) {
        kill(-it->pid, SIGKILL);
        waitpid(it->pid, &status, 0);
        outcome = fmt::format(
            "timed out: still grading after {:.0f} s (--student-timeout), so "
            "the local engine stopped it",
            o.student_timeout);
      } else {
        ++it;
        continue;
      }
      kill(-it->pid, SIGKILL);  // anything the task left running
      if (!outcome.empty())
        course::write_text_atomically(dir.student(student) + "/outcome", outcome);
      ++done;
      if (o.status_messages)
        fmt::print(stderr, "[{}/{}] {} ({:.0f} s){}\n", done, todo.size(), student, seconds,
                   outcome.empty() ? "" : ": " + outcome);
      it = running.erase(it);
    }
  }
  for (const Running& r : running) {
    kill(-r.pid, SIGKILL);
    int status = 0;
    waitpid(r.pid, &status, 0);
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  return interrupted ? 130 : course::kExitOk;
}

std::string array_ranges(const std::vector<int>& indices) {
  std::string out;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    out += (out.empty() ? "" : ",") +
           (j == i ? std::to_string(indices[i]) : fmt::format("{}-{}", indices[i], indices[j]));
    i = j + 1;
  }
  return out;
}

std::string slurm_job_script(const ClassDir& dir, const ClassSettings& s, const SlurmOptions& o) {
  auto directive = [](const std::string& name, const std::string& value,
                      const std::string& example) {
    // The explanation has a line of its own: sbatch rejects text after a directive's value.
    return value.empty() ? fmt::format(
                               "# To use the next line, remove one # from it:\n"
                               "##SBATCH --{}={}\n",
                               name, example)
                         : fmt::format("#SBATCH --{}={}\n", name, value);
  };
  const std::string tag = sha256_hex(dir.root).substr(0, 8);
  const std::string work = o.work_dir.empty() ? "${TMPDIR:-/tmp}/grader-class-" + tag : o.work_dir;
  std::string script = "#!/bin/bash\n";
  script += "#SBATCH --job-name=grade-class\n";
  script += directive("partition", o.partition, "gpu");
  script += directive("account", o.account, "my-course");
  script += directive("gres", o.gres, "gpu:1");
  script += fmt::format("#SBATCH --cpus-per-task={}\n", o.cpus_per_task);
  script += fmt::format("#SBATCH --time={}\n", o.time);
  script += fmt::format("#SBATCH --output={}/logs/%A_%a.out\n", dir.slurm());
  script += fmt::format(
      "#\n"
      "# Grades the class in {0}: one array task per {1} student(s) of its roster.csv, each on\n"
      "# the GPU Slurm gives it. Written by `grader class grade --engine slurm`, which submits it\n"
      "# with --array=<tasks>%<max running> and keeps this file once written: edit the #SBATCH\n"
      "# lines above (partition, account, time per task, GPUs) as your cluster needs.\n"
      "# Results land in {0}/students/; `grader class collect {0}` assembles the gradebook.\n"
      "#\n"
      "# The work trees (a built copy of the course, compiled again only where a student's files\n"
      "# differ) are kept on the node's local disk between tasks.\n"
      "set -euo pipefail\n"
      "exec {2} class task {3} \"$SLURM_ARRAY_TASK_ID\" --batch {1} --work \"{4}\"\n",
      dir.root, o.batch, shell_quote(s.grader), shell_quote(dir.root), work);
  return script;
}

namespace {

// The jobs recorded in OUT/slurm/jobs.json, oldest first.
nlohmann::json recorded_jobs(const ClassDir& dir) {
  nlohmann::json jobs = nlohmann::json::parse(
      course::read_text(dir.slurm() + "/jobs.json").value_or("[]"), nullptr, false);
  return jobs.is_array() ? jobs : nlohmann::json::array();
}

}  // namespace

std::optional<std::vector<std::string>> queued_jobs(const std::vector<std::string>& jobs) {
  if (jobs.empty()) return std::vector<std::string>{};
  // Every job squeue lists (pending, running, completing), as its array's job id.
  const Captured c = run_capture({"squeue", "-h", "-o", "%F"});
  if (c.exit_code != 0) return std::nullopt;
  const std::vector<std::string> listed = split(c.output, '\n');
  std::vector<std::string> out;
  for (const std::string& job : jobs)
    if (std::find(listed.begin(), listed.end(), job) != listed.end() &&
        std::find(out.begin(), out.end(), job) == out.end())
      out.push_back(job);
  return out;
}

int submit_slurm(const ClassDir& dir, const SlurmOptions& o, const std::vector<std::string>& only) {
  const ClassSettings s = ClassSettings::load(dir);
  if (o.submit && !o.force_submit) {
    std::vector<std::string> ids;
    for (const nlohmann::json& j : recorded_jobs(dir)) ids.push_back(j.value("job", ""));
    const auto queued = queued_jobs(ids);
    if (!queued)
      fmt::print(stderr,
                 "grader class grade: note: squeue did not run, so whether an earlier job of {} "
                 "is still queued was not checked\n",
                 dir.root);
    else if (!queued->empty())
      throw ClassError(fmt::format(
          "job {0} of {1} is still queued or running (squeue): submitting again would grade its "
          "students twice. Wait for it to end (`grader class collect {1}`, then `grade` again "
          "submits only the students without a result), or cancel it first (`scancel {2}`); "
          "--force-submit submits anyway",
          fmt::format("{}", fmt::join(*queued, ", ")), dir.root,
          fmt::format("{}", fmt::join(*queued, " "))));
  }
  const std::string script = dir.slurm() + "/grade.sbatch";
  fs::create_directories(dir.slurm() + "/logs");
  if (!fs::exists(script)) {
    course::write_text_atomically(script, slurm_job_script(dir, s, o));
    fmt::print("wrote the job script {} (edit its #SBATCH lines as your cluster needs)\n", script);
  } else {
    fmt::print("kept the job script {} as it is (delete it to write it again)\n", script);
  }
  const std::vector<int> tasks = pending_tasks(dir, o.batch, only);
  if (tasks.empty()) {
    say_nothing_to_grade(stdout);
    return course::kExitOk;
  }
  const std::string array = fmt::format("{}%{}", array_ranges(tasks), o.max_running);
  const std::vector<std::string> argv = {"sbatch", "--parsable", "--array=" + array, script};
  if (!o.submit) {
    fmt::print("to submit: {}\n", fmt::format("{}", fmt::join(argv, " ")));
    return course::kExitOk;
  }
  const Captured c = run_capture(argv);
  const std::vector<std::string> lines = split(c.output, '\n');
  const std::string job = lines.empty() ? "" : lines.front().substr(0, lines.front().find(';'));
  if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) {
    fmt::print(stderr, "grader class grade: sbatch did not submit the job ({}): {}\n", c.exit_code,
               c.output);
    return course::kExitInternal;
  }
  // Recorded at once, so that a `grade` run while it is queued sees it (and does not submit it
  // again), --wait or not.
  nlohmann::json jobs = recorded_jobs(dir);
  jobs.push_back({{"job", job}, {"tasks", tasks}, {"batch", o.batch}});
  course::write_text_atomically(dir.slurm() + "/jobs.json", jobs.dump(2) + "\n");
  fmt::print("submitted job {} ({} task(s): --array={})\n", job, tasks.size(), array);
  if (!o.wait) {
    fmt::print("when it has run: grader class collect {}\n", dir.root);
    return course::kExitOk;
  }
  fmt::print("waiting for job {} to end ...\n", job);
  std::fflush(stdout);
  for (;;) {  // what sbatch --wait does, with the job recorded first
    const auto queued = queued_jobs({job});
    if (!queued || queued->empty()) break;
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  return course::kExitOk;
}

namespace {

// A Slurm task's state ("PENDING", "TIMEOUT", ...) and, while it waits, squeue's reason.
struct TaskState {
  std::string state, reason;
};

// "JOB_INDEX" -> its state, from sacct when accounting works, and from squeue for the tasks still
// queued or running (with the reason a pending one waits: "Resources", "PartitionConfig", ...).
std::map<std::string, TaskState> slurm_states(const std::vector<std::string>& jobs) {
  std::map<std::string, TaskState> states;
  if (jobs.empty()) return states;
  const std::string list = fmt::format("{}", fmt::join(jobs, ","));
  auto read = [&](const Captured& c) {
    if (c.exit_code != 0) return;
    for (const std::string& line : split(c.output, '\n')) {
      const std::vector<std::string> f = split(line, '|');
      if (f.size() >= 2) states[f[0]] = {split(f[1], ' ').front(), f.size() > 2 ? f[2] : ""};
    }
  };
  read(run_capture({"sacct", "-n", "-P", "-X", "-j", list, "--format=JobID,State"}));
  read(run_capture({"squeue", "-h", "-r", "-j", list, "-o", "%i|%T|%r"}));
  return states;
}

std::string task_outcome(const ClassDir& dir, const std::string& job, int task,
                         const std::map<std::string, TaskState>& states) {
  const std::string id = fmt::format("{}_{}", job, task);
  const std::string log = fmt::format("{}/logs/{}.out", dir.slurm(), id);
  const std::optional<std::string> text = course::read_text(log);
  const auto it = states.find(id);
  std::string state = it != states.end() ? it->second.state : "";
  const std::string reason = it != states.end() ? it->second.reason : "";
  if (state.empty() && text && text->find("DUE TO TIME LIMIT") != std::string::npos)
    state = "TIMEOUT";
  if (state.empty() && text && text->find("CANCELLED") != std::string::npos) state = "CANCELLED";
  if (state == "TIMEOUT")
    return fmt::format(
        "Slurm task {} ran past its time limit and was killed (log: {}); "
        "re-run it with `grader class grade` (it submits only what has no result)",
        id, log);
  if (state == "PENDING")  // no log yet: squeue's reason says why it waits
    return fmt::format(
        "Slurm task {} is PENDING (squeue's reason: {}; `scontrol show job {}` says more: "
        "PartitionConfig means it asks for more than the partition has, e.g. --cpus-per-task)",
        id, reason.empty() ? "none given" : reason, job);
  if (!state.empty() && state != "COMPLETED")
    return text ? fmt::format("Slurm task {} is {} (log: {})", id, state, log)
                : fmt::format("Slurm task {} is {}", id, state);
  if (text) return fmt::format("Slurm task {} ended without a result (log: {})", id, log);
  return fmt::format("Slurm task {} has not run yet", id);
}

}  // namespace

std::map<std::string, std::string> why_missing(const ClassDir& dir) {
  std::map<std::string, std::string> why;
  const std::vector<RosterEntry> roster = read_roster(dir.roster());
  const nlohmann::json jobs = recorded_jobs(dir);
  std::vector<std::string> ids;
  for (const nlohmann::json& j : jobs) ids.push_back(j.value("job", ""));
  const std::map<std::string, TaskState> states = slurm_states(ids);
  for (const nlohmann::json& j : jobs) {  // later submissions of a task override earlier ones
    const int batch = j.value("batch", 1);
    for (int task : j.value("tasks", std::vector<int>{}))
      for (int i = task * batch;
           i < std::min<int>(static_cast<int>(roster.size()), (task + 1) * batch); ++i)
        why[roster[i].student] = task_outcome(dir, j.value("job", ""), task, states);
  }
  for (const RosterEntry& e : roster)
    if (const auto note = course::read_text(dir.student(e.student) + "/outcome"))
      why[e.student] = *note;
  return why;
}

}  // namespace driver
