// `grader class grade ROSTER -o OUT`, `grader class task OUT INDEX` and `grader class collect OUT`:
// a whole class graded on this machine's GPUs or on a Slurm cluster, into one gradebook.
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "class_engines.hpp"
#include "class_row.hpp"
#include "class_task.hpp"
#include "command.hpp"
#include "course/cli_checks.hpp"
#include "course/config.hpp"
#include "course/text_file.hpp"
#include "gradebook.hpp"
#include "process.hpp"

namespace driver::cli {

namespace {

namespace fs = std::filesystem;

ClassDir class_dir(const std::string& out) {
  return {fs::absolute(out).lexically_normal().string()};
}

// Assembles the gradebook, prints its summary; exit code 0 when every row is graded, 3 when some
// could not be here (no GPU), 1 when some have no grade at all.
int collect_and_report(const ClassDir& dir, const course::Manifest& manifest, bool quiet) {
  const Gradebook book = collect_gradebook(dir, manifest, why_missing(dir));
  if (!quiet) fmt::print("{}", book.summary);
  fmt::print(
      "\ngradebook: {0}/gradebook.csv, {0}/gradebook.json; summary: {0}/summary.md; each "
      "student's reports: {0}/students/<id>/\n",
      dir.root);
  bool incomplete = false, not_graded = false;
  for (const nlohmann::json& row : book.json["rows"]) {
    incomplete |= row["status"] == "incomplete";
    not_graded |= row["status"] == "not_graded";
  }
  if (not_graded) return course::kExitFailed;
  return incomplete ? course::kExitNoGpu : course::kExitOk;
}

// An error the grader did not foresee (a file system error: a folder that cannot be written, a
// disk that is full), said plainly: exit code 5, never an abort.
int internal_error(const std::string& command, const std::exception& e) {
  fmt::print(stderr, "{}: {}\n", command, e.what());
  return course::kExitInternal;
}

// The exit codes of `class grade` and `class collect`: written here only, shown by their --help
// (docs/INSTRUCTORS.md, "Grading a class", points to it).
constexpr const char* kClassExitCodes =
    "Exit codes:\n"
    "  0    every row graded\n"
    "  1    some rows not graded (the summary says why); wins over 3\n"
    "  2    usage error (roster, secret, lessons, an -o that is a file, a Slurm job of the\n"
    "       class still queued): no gradebook is made\n"
    "  3    rows incomplete because this machine cannot grade them (no GPU)\n"
    "  5    the grader could not work (a work tree, sbatch, the file system): no gradebook\n"
    "  130  interrupted\n";

class ClassGrade : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("grade", "grade every submission of a roster into a gradebook");
    app_->footer(kClassExitCodes);
    app_->add_option("roster", roster_,
                     "CSV: student,submission[,ref] (a folder, or a git repository and ref)")
        ->required();
    app_->add_option("-o,--out", out_, "the class folder: results, gradebook, job script")
        ->required();
    app_->add_option("--lessons", lessons_, "lessons to grade (default: every ready one)")
        ->delimiter(',');
    app_->add_option(
        "--secret-file", secret_file_,
        std::string("file holding the class secret (default: $") + kSecretVariable + ")");
    app_->add_option("--engine", engine_, "local (this machine's GPUs) or slurm (a job array)")
        ->check(CLI::IsMember({"local", "slurm"}));
    app_->add_flag("--quick", quick_, "no memcheck, no large cases, no Nsight Compute (faster)");
    app_->add_flag("--regrade", regrade_, "grade everyone again, also those graded in full");
    app_->add_option("--only", only_, "grade only these students (ids), again even when graded")
        ->delimiter(',');
    app_->add_option("--cuda-architectures", architectures_,
                     "CUDA architectures of the work trees' build (default: this build's)");
    app_->add_option("--work", work_, "where work trees are built (local default: OUT/work)");
    app_->add_option("--timeout", shared.test_timeout, "seconds one hidden test may run")
        ->check(course::cli::seconds(0, 86400));
    app_->add_option("--kernel-timeout", shared.kernel_timeout, "seconds one kernel may run")
        ->check(course::cli::seconds(0, 86400));
    app_->add_option("--gpus", gpus_, "local: GPU indices to use (default: every GPU)")
        ->delimiter(',');
    app_->add_option("--prefetch", local_.prefetch,
                     "local: students compiled ahead while the GPUs grade")
        ->capture_default_str()
        ->check(course::cli::whole_number(0, 64));
    app_->add_option("--student-timeout", local_.student_timeout,
                     "local: wall seconds for one student before the task is stopped")
        ->capture_default_str()
        ->check(course::cli::seconds(0, 86400));
    app_->add_option("--partition", slurm_.partition, "slurm: partition");
    app_->add_option("--account", slurm_.account, "slurm: account");
    app_->add_option("--time", slurm_.time, "slurm: time limit per task (default 00:30:00)");
    app_->add_option("--gres", slurm_.gres,
                     "slurm: generic resources per task (default gpu:1; \"\" for none)");
    app_->add_option("--cpus-per-task", slurm_.cpus_per_task, "slurm: CPUs per task")
        ->capture_default_str()
        ->check(course::cli::whole_number(1, 1024));
    app_->add_option("--max-running", slurm_.max_running, "slurm: tasks running at once (%K)")
        ->capture_default_str()
        ->check(course::cli::whole_number(1, 100000));
    app_->add_option("--batch", slurm_.batch, "slurm: students per task")
        ->capture_default_str()
        ->check(course::cli::whole_number(1, 100000));
    app_->add_flag("--no-submit", no_submit_, "slurm: write the job script, do not submit it");
    app_->add_flag("--wait", slurm_.wait, "slurm: wait for the job, then collect the gradebook");
    app_->add_flag("--force-submit", slurm_.force_submit,
                   "slurm: submit even while an earlier job of OUT is still queued or running");
    add_color_option(*app_, shared);
    app_->add_flag("-q,--quiet", shared.quiet, "no progress messages, no summary");
  }
  int run(Context& context) override;

 private:
  std::string roster_, out_, secret_file_, engine_ = "local", architectures_, work_;
  std::vector<std::string> lessons_, gpus_, only_;
  bool quick_ = false, regrade_ = false, no_submit_ = false;
  LocalOptions local_;
  SlurmOptions slurm_;
};

// Writes OUT/class.json, roster.csv and course.tar: what every task grades with.
void set_up(const ClassDir& dir, const ClassSettings& wanted,
            const std::vector<RosterEntry>& roster) {
  std::error_code ec;
  if (fs::exists(dir.root, ec) && !fs::is_directory(dir.root, ec))
    throw ClassError(fmt::format("the class folder (-o) {} is a file, not a folder", dir.root));
  fs::create_directories(dir.root, ec);
  if (ec)
    throw ClassError(
        fmt::format("cannot make the class folder (-o) {}: {}", dir.root, ec.message()));
  // Relative submission paths in the copy would be relative to OUT: write them absolute.
  std::string copy = csv_line({"student", "submission", "ref"});
  for (const RosterEntry& e : roster) copy += csv_line({e.student, e.submission, e.ref});
  course::write_text_atomically(dir.roster(), copy);
  ClassSettings s = wanted;
  std::string warning;
  const std::string fresh = dir.course_archive() + ".new";
  s.course_origin = write_course_archive(course::config::kSourceDir, fresh, warning);
  if (!warning.empty()) fmt::print(stderr, "grader class grade: note: {}\n", warning);
  const Captured sum = run_capture({"sha256sum", fresh});
  s.course_fingerprint = sum.output.substr(0, 12);
  fs::rename(fresh, dir.course_archive());
  course::write_text_atomically(dir.settings(), s.to_json().dump(2) + "\n");
}

int ClassGrade::run(Context& context) {
  const ClassDir dir = class_dir(out_);
  try {
    // Grading into a class folder again: the lessons and the secret file not given are its own.
    if (fs::is_regular_file(dir.settings())) {
      const ClassSettings before = ClassSettings::load(dir);
      if (lessons_.empty()) lessons_ = before.lessons;
      if (secret_file_.empty() && !std::getenv(kSecretVariable)) secret_file_ = before.secret_file;
    }
    ClassSettings s;
    s.lessons = class_lessons(context.manifest, lessons_);
    s.quick = quick_;
    s.test_timeout = context.shared.test_timeout;
    s.kernel_timeout = context.shared.kernel_timeout;
    s.cmake = course::config::kCMake;
    s.configure_args = work_tree_configure_args(course::config::kBinaryDir, architectures_);
    s.secret_file = secret_file_.empty() ? "" : fs::absolute(secret_file_).string();
    s.seed_fingerprint = secret_fingerprint(read_secret(s.secret_file));
    std::error_code ec;
    const fs::perms perms = fs::status(s.secret_file, ec).permissions();
    if (!s.secret_file.empty() && !ec &&
        (perms & (fs::perms::group_read | fs::perms::others_read)) != fs::perms::none)
      fmt::print(stderr,
                 "grader class grade: warning: the secret file {} is readable by others than "
                 "you: `chmod 600 {}`\n",
                 s.secret_file, s.secret_file);
    s.grader = this_grader("grader");
    const std::vector<RosterEntry> roster = read_roster(roster_);  // a bad one makes no OUT
    for (const std::string& id : only_)
      if (std::none_of(roster.begin(), roster.end(),
                       [&](const RosterEntry& e) { return e.student == id; }))
        throw ClassError(fmt::format("--only {}: no such student in {}", id, roster_));
    set_up(dir, s, roster);
    for (const RosterEntry& e : roster)
      if (regrade_ || std::find(only_.begin(), only_.end(), e.student) != only_.end())
        mark_for_regrade(dir, e.student);
    if (engine_ == "slurm") {
      slurm_.work_dir = work_;
      slurm_.submit = !no_submit_;
      if (const int rc = submit_slurm(dir, slurm_, only_); rc != course::kExitOk || !slurm_.wait)
        return rc;
    } else {
      local_.gpus = gpus_.empty() ? detect_gpus() : gpus_;
      local_.work_dir = work_.empty() ? dir.root + "/work" : fs::absolute(work_).string();
      local_.only = only_;
      local_.status_messages = !context.shared.quiet;
      if (const int rc = run_local(dir, local_); rc != course::kExitOk) return rc;
    }
    return collect_and_report(dir, context.manifest, context.shared.quiet);
  } catch (const ClassError& e) {
    return context.usage_error("grader class grade", e.what());
  } catch (const RosterError& e) {
    return context.usage_error("grader class grade", e.what());
  } catch (const std::exception& e) {  // a file system error: never an abort
    return internal_error("grader class grade", e);
  }
}

class ClassTask : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions&) override {
    app_ = parent.add_subcommand(
        "task", "grade one task's students of a class folder (what the engines run)");
    app_->add_option("out", out_, "the class folder")->required();
    app_->add_option("index", index_, "task index (Slurm's $SLURM_ARRAY_TASK_ID)")
        ->required()
        ->check(course::cli::whole_number(0, 100000000));
    app_->add_option("--work", options_.work_dir, "where work trees are built")->required();
    app_->add_option("--gpus", options_.gpus, "GPUs to take turns on (default: what is visible)")
        ->delimiter(',');
    app_->add_option("--batch", options_.batch, "students per task")
        ->check(course::cli::whole_number(1, 100000));
    app_->add_flag("--regrade", options_.regrade, "grade again students who have a result");
  }
  int run(Context& context) override {
    options_.work_dir = fs::absolute(options_.work_dir).string();
    return run_class_task(class_dir(out_), index_, options_, context.manifest);
  }

 private:
  std::string out_;
  int index_ = 0;
  TaskOptions options_;
};

class ClassCollect : public Subcommand {
 public:
  void add_to(CLI::App& parent, SharedOptions& shared) override {
    app_ = parent.add_subcommand("collect", "assemble the gradebook of a class folder");
    app_->footer(kClassExitCodes);
    app_->add_option("out", out_, "the class folder")->required();
    app_->add_flag("-q,--quiet", shared.quiet, "no summary");
  }
  int run(Context& context) override {
    try {
      return collect_and_report(class_dir(out_), context.manifest, context.shared.quiet);
    } catch (const ClassError& e) {
      return context.usage_error("grader class collect", e.what());
    } catch (const RosterError& e) {
      return context.usage_error("grader class collect", e.what());
    } catch (const std::exception& e) {
      return internal_error("grader class collect", e);
    }
  }

 private:
  std::string out_;
};

// `grader class` itself: only its subcommands do anything.
class ClassGroup : public Command {
 public:
  void add_to(CLI::App& app, SharedOptions&) override {
    app.add_subcommand(
           "class", "instructors: grade a whole class (a roster of submissions) into a gradebook")
        ->require_subcommand(1);
  }
  bool chosen() const override { return false; }  // its subcommands run, never the group
  int run(Context&) override { return course::kExitInternal; }
};

const CommandRegistrar class_registrar{
    {"", 90, false, [] { return std::make_unique<ClassGroup>(); }}};
const CommandRegistrar class_grade_registrar{
    {"class", 10, false, [] { return std::make_unique<ClassGrade>(); }}};
const CommandRegistrar class_task_registrar{
    {"class", 20, false, [] { return std::make_unique<ClassTask>(); }}};
const CommandRegistrar class_collect_registrar{
    {"class", 30, false, [] { return std::make_unique<ClassCollect>(); }}};

}  // namespace

}  // namespace driver::cli
