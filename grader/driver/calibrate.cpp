#include "calibrate.hpp"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>  // fmt::join (in format.h before fmt 11)

#include "course/config.hpp"
#include "course/protocol.hpp"
#include "course/report.hpp"
#include "course/text_file.hpp"
#include "devcheck.hpp"

namespace driver {

namespace fs = std::filesystem;

std::string measured_file_stem(const std::string& gpu_name) {
  std::string name = gpu_name;
  for (const std::string drop : {"NVIDIA ", "GeForce "})
    if (const auto at = name.find(drop); at != std::string::npos) name.erase(at, drop.size());
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '-';
  return name.empty() ? "unknown-GPU" : name;
}

int dev_calibrate(const course::Manifest& m, const CalibrateOptions& o, GradeOptions g) {
  if (!course::config::kDevTargets) {
    fmt::print(stderr,
               "grader dev calibrate: this build has no solution and wrong-kernel variants: run it "
               "from the test configuration (cmake --preset test && cmake --build build-test && "
               "./build-test/grader dev calibrate)\n");
    return course::kExitNoGpu;
  }
  const course::Lesson* only = nullptr;
  if (!o.lesson.empty()) {
    try {
      only = course::resolve(m, o.lesson).lesson;
    } catch (const course::UsageError& e) {
      fmt::print(stderr, "grader dev calibrate: {}\n", e.what());
      return course::kExitUsage;
    }
  }
  g.kind = course::RunKind::quick;  // margins only: memcheck decides no gate
  // and only the timed tests: their first check and the checks of kept timed launches still
  // compare outputs, so a kernel that is fast because it is wrong is not timed.
  g.speed_tests_only = true;
  g.status_messages = false;
  DevCheckOptions runs;
  runs.repeat = o.repeat;
  std::string table =
      "| step | gate | solution, lowest | nearest wrong kernel | its highest | margins (points) |\n"
      "| --- | --- | --- | --- | --- | --- |\n";
  std::string gpu;
  int flagged = 0, calibrated = 0;
  for (const course::Lesson& lesson : m.lessons) {
    if (!lesson.ready() || (only && only != &lesson)) continue;
    const bool gated = std::any_of(lesson.steps.begin(), lesson.steps.end(),
                                   [](const course::Step& s) { return s.gate.has_value(); });
    if (!gated) continue;
    ++calibrated;
    fmt::print(stderr, "{}: the solution and the wrong kernels, {} runs each ...\n", lesson.id,
               o.repeat);
    const VariantOutcome solution = grade_variant(lesson, "solution", runs, g);
    if (!solution.no_gpu.empty()) {
      fmt::print(stderr, "grader dev calibrate: {}\n", solution.no_gpu);
      return course::kExitNoGpu;
    }
    if (gpu.empty()) gpu = solution.device.value("name", "");
    for (const course::Step& step : lesson.steps) {
      if (!step.gate) continue;
      const double gate = step.gate->fraction_of_ceiling;
      const auto sol = solution.ratios.find(step.name);
      const double sol_low = sol == solution.ratios.end() || sol->second.empty()
                                 ? 0
                                 : *std::min_element(sol->second.begin(), sol->second.end());
      std::string nearest = "none in the catalogue";
      double wrong_high = -1;
      std::vector<std::string> untimed;  // near misses that gave no figure: a margin unknown
      for (const course::WrongKernel& w : lesson.wrong_kernels) {
        // Only the near misses: right kernels that the gate itself must fail. A kernel caught by
        // its output may still be timed (pointer_left_on_failure at 100%), but no gate keeps it
        // out.
        if (w.step != step.name || w.diagnosis != course::protocol::kBelowGate) continue;
        const VariantOutcome wrong = grade_variant(lesson, w.name, runs, g);
        const auto r = wrong.ratios.find(step.name);
        if (r == wrong.ratios.end() || r->second.empty()) {
          untimed.push_back(w.name);
          continue;
        }
        const double high = *std::max_element(r->second.begin(), r->second.end());
        if (high > wrong_high) {
          wrong_high = high;
          nearest = w.name;
        }
      }
      if (wrong_high < 0 && !untimed.empty()) nearest = "none timed";
      const bool sol_timed = sol != solution.ratios.end() && !sol->second.empty();
      const double sol_margin = 100 * (sol_low - gate), wrong_margin = 100 * (gate - wrong_high);
      const bool low =
          sol_margin < kMinMarginPoints || (wrong_high >= 0 && wrong_margin < kMinMarginPoints);
      std::string flags = low ? fmt::format(" **under {:g}**", kMinMarginPoints) : "";
      if (!sol_timed) flags += " **solution not timed**";
      if (!untimed.empty()) flags += fmt::format(" **not timed: {}**", fmt::join(untimed, ", "));
      flagged += !flags.empty();
      table +=
          fmt::format("| {}.{} | {:g}% | {:.1f}% | {} | {} | {:+.1f} / {}{} |\n", lesson.id,
                      step.name, 100 * gate, 100 * sol_low, nearest,
                      wrong_high >= 0 ? fmt::format("{:.1f}%", 100 * wrong_high) : "-", sol_margin,
                      wrong_high >= 0 ? fmt::format("{:+.1f}", wrong_margin) : "-", flags);
    }
  }
  if (calibrated == 0) {  // nothing measured: no table, and never a file named after no GPU
    fmt::print(stderr, "grader dev calibrate: {} no step with a speed gate: nothing to calibrate\n",
               only ? only->id + " has" : std::string("the course has"));
    return course::kExitUsage;
  }
  const std::string block = fmt::format(
      "Gate margins on {} (`grader dev calibrate`, {} runs of each solution and wrong kernel, "
      "only the timed tests, memcheck off): the solution's lowest fraction of the ceiling and the "
      "nearest wrong "
      "kernel's highest; a margin under {:g} points is flagged, and so is a kernel that gave no "
      "figure.\n\n{}",
      gpu.empty() ? "this GPU" : gpu, o.repeat, kMinMarginPoints, table);
  fmt::print("{}", block);
  if (o.write) {
    const fs::path doc = fs::path(course::config::kSourceDir) / "docs" / "measured" /
                         (measured_file_stem(gpu) + ".md");
    std::string text =
        course::read_text(doc.string()).value_or(fmt::format("# Measured on {}\n", gpu));
    if (!course::replace_marked_block(text, "calibration", block))
      text += fmt::format(
          "\n## Gate margins\n\n<!-- calibration:begin -->\n{}<!-- calibration:end -->\n", block);
    if (!course::write_text_atomically(doc.string(), text)) {
      fmt::print(stderr, "grader dev calibrate: cannot write {}\n", doc.string());
      return course::kExitUsage;
    }
    fmt::print("written to {}\n", doc.string());
  }
  return flagged ? course::kExitFailed : course::kExitOk;
}

}  // namespace driver
