#include "profile_command.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join (in format.h before fmt 11)

#include "course/config.hpp"
#include "course/profile.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"
#include "process.hpp"

namespace driver {

namespace fs = std::filesystem;

namespace {

// ncu on the bench's table of the lesson, clocks as found (--clock-control none: never lock or
// change them), the report exported to `report`.
std::vector<std::string> ncu_command(const std::string& ncu, const course::Lesson& lesson,
                                     const GradeOptions& g, const std::string& bench,
                                     const std::string& report) {
  std::vector<std::string> cmd = {ncu};
  for (const std::string& a : course::profile::ncu_profile_args(lesson.profile_kernels, report))
    cmd.push_back(a);
  for (const std::string& a :
       {bench, std::string("--table"), lesson.profile_table, std::string("--once"),
        std::string("--device"), std::to_string(g.device)})
    cmd.push_back(a);
  return cmd;
}

// Counters not permitted: say how to allow them, and show the timing without them.
int explain_counter_permission(const course::Lesson& lesson, const GradeOptions& g,
                               const std::string& bench) {
  fmt::print(
      "Nsight Compute may not read this GPU's performance counters here (ERR_NVGPUCTRPERM).\n"
      "Fix: run as root or with CAP_SYS_ADMIN, or let every user profile: load the driver with\n"
      "NVreg_RestrictProfilingToAdminUsers=0 (see "
      "https://developer.nvidia.com/ERR_NVGPUCTRPERM).\n"
      "On Colab or a shared machine you may not be allowed to; here is the timing without "
      "counters:\n\n");
  const Captured timing =
      run_capture({bench, "--table", lesson.profile_table, "--device", std::to_string(g.device)});
  fmt::print("{}", timing.output);
  return course::kExitFailed;
}

// The kernels' metrics from the exported report; an exit code when there are none.
int read_metrics(const std::string& ncu, const std::string& report, const course::Lesson& lesson,
                 const std::string& ncu_output,
                 std::vector<course::profile::KernelMetrics>& kernels) {
  std::vector<std::string> import = {ncu};
  for (const std::string& a : course::profile::ncu_import_args(report)) import.push_back(a);
  const Captured csv = run_capture(import);
  try {
    kernels = course::profile::parse_ncu_csv(csv.output);
  } catch (const std::exception& e) {
    fmt::print(stderr, "grader profile: could not read ncu's results ({}). ncu said:\n{}\n{}",
               e.what(), ncu_output, csv.output);
    return course::kExitFailed;
  }
  if (!kernels.empty()) return course::kExitOk;
  fmt::print(stderr,
             "grader profile: ncu profiled no kernel matching '{}'. Are the kernels right (the "
             "bench does not time a wrong one)? ncu said:\n{}",
             lesson.profile_kernels, ncu_output);
  return course::kExitFailed;
}

int write_profile_block(const std::string& path, const std::string& body) {
  std::optional<std::string> doc = course::read_text(path);
  if (!doc || !course::replace_marked_block(*doc, "profile:verdicts", body) ||
      !course::write_text_atomically(path, *doc)) {
    fmt::print(stderr,
               "grader profile: cannot write the block <!-- profile:verdicts:begin --> ... "
               "<!-- profile:verdicts:end --> of {}\n",
               path);
    return course::kExitUsage;
  }
  fmt::print(stderr, "wrote the metrics and verdict lines into {}\n", path);
  return course::kExitOk;
}

// What stops profiling before ncu runs: nothing to profile, no ncu, a bench that does not build.
int check_ready(const course::Lesson& lesson, const GradeOptions& g, const std::string& ncu) {
  if (lesson.profile_table.empty()) {
    fmt::print(stderr, "grader profile: lesson {} has no kernels to profile yet\n", lesson.id);
    return course::kExitUsage;
  }
  if (ncu.empty()) {
    fmt::print(stderr,
               "grader profile: Nsight Compute (ncu) was not found. It ships with the CUDA toolkit "
               "(or from developer.nvidia.com/nsight-compute); put it on PATH.\n");
    return course::kExitNoGpu;  // 3: this machine cannot run it
  }
  if (!g.build) return course::kExitOk;
  const Captured c =
      run_capture({course::config::kCMake, "--build", g.binary_dir, "--target", "bench"});
  if (c.exit_code == 0) return course::kExitOk;
  fmt::print(stderr, "grader profile: the bench did not build:\n{}", compiler_errors(c.output));
  return course::kExitBuildFailed;
}

}  // namespace

int run_profile(const course::Lesson& lesson, const GradeOptions& g,
                const ProfileOptions& options) {
  const std::string ncu = lesson.profile_table.empty() ? "" : course::profile::find_ncu();
  if (const int rc = check_ready(lesson, g, ncu); rc != course::kExitOk) return rc;
  const std::string bench = (fs::path(g.binary_dir) / "bench").string();
  const fs::path dir = fs::path(g.binary_dir) / "grader-runs" / ("profile_" + lesson.id);
  fs::create_directories(dir);
  const std::string report = (dir / "profile").string();
  const std::vector<std::string> cmd = ncu_command(ncu, lesson, g, bench, report);
  if (g.status_messages)
    fmt::print(stderr, "profiling: {} ... (ncu replays each kernel several times)\n",
               fmt::join(cmd, " "));
  const Captured run = run_capture(cmd);
  std::ofstream(dir / "ncu.log") << run.output;
  if (run.output.find("ERR_NVGPUCTRPERM") != std::string::npos)
    return explain_counter_permission(lesson, g, bench);
  if (run.exit_code == course::kExitNoGpu ||
      run.output.find("no usable CUDA GPU") != std::string::npos) {
    fmt::print(stderr, "grader profile: no usable CUDA GPU\n");
    return course::kExitNoGpu;
  }
  std::vector<course::profile::KernelMetrics> kernels;
  if (const int rc = read_metrics(ncu, report, lesson, run.output, kernels); rc != course::kExitOk)
    return rc;
  std::string body = course::profile::metrics_table(kernels) + "\n";
  for (const auto& k : kernels) body += "- " + course::profile::verdict_line(k, lesson.id) + "\n";
  // Kernels with FP32 work (lesson 13's products) also get their place on the FP32 roofline.
  for (const auto& k : kernels)
    if (const std::string r = course::profile::roofline_line(k); !r.empty())
      body += "- roofline: " + r + "\n";
  fmt::print(
      "Nsight Compute on {} (bench --table {}, clocks as found: --clock-control none)\n\n{}\n"
      "Metrics: {}\n(full output: {})\n",
      lesson.id, lesson.profile_table, body, fmt::join(course::profile::metric_names(), ","),
      (dir / "ncu.log").string());
  if (options.write_profile.empty()) return course::kExitOk;
  return write_profile_block(options.write_profile, body);
}

}  // namespace driver
