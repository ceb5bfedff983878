#include "course/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <utility>

#include "course/protocol.hpp"

namespace course {

using nlohmann::json;
using protocol::TestRecord;

const std::vector<ExitCodeMeaning>& exit_code_meanings() {
  static const std::vector<ExitCodeMeaning> meanings = {
      {kExitOk, "everything asked for passed"},
      {kExitFailed,
       "a step failed: a wrong result, too slow, rejected as impossibly fast, crashed, hung, or a "
       "memcheck finding"},
      {kExitUsage,
       "usage error: unknown lesson, step or option, or a report file that could not be written"},
      {kExitNoGpu,
       "this machine cannot run it: no usable CUDA GPU (also under `--sanitize`), or no CUDA "
       "compiler, compute-sanitizer (`--sanitize`) or Nsight Compute (`profile`) where one is "
       "needed; nothing was graded"},
      {kExitBuildFailed,
       "the lesson's code did not compile or link (the compiler's or linker's errors are shown; a "
       "deleted or renamed kernel is named)"},
      {kExitInternal,
       "internal error of the grader: manifest, build tree, a test process that ended without "
       "any report, or `grader-instructor` not built (for `dev` and `class`; the message says how "
       "to build it)"},
  };
  return meanings;
}

std::string exit_codes_markdown() {
  std::string out = "| code | meaning |\n| --- | --- |\n";
  for (const ExitCodeMeaning& e : exit_code_meanings())
    out += fmt::format("| {} | {} |\n", static_cast<int>(e.code), e.meaning);
  return out;
}

std::string exit_codes_text(std::size_t width) {
  std::string out = "Exit codes:\n";
  const std::string indent = "     ";  // under the meaning, past "  N  "
  for (const ExitCodeMeaning& e : exit_code_meanings()) {
    std::string line = fmt::format("  {}  ", static_cast<int>(e.code));
    std::size_t column = line.size();
    std::string word;
    const auto flush = [&] {
      if (word.empty()) return;
      if (column + word.size() > width && column > indent.size()) {
        out += line + "\n";
        line = indent;
        column = indent.size();
      } else if (column > indent.size() && line.back() != ' ') {
        line += ' ';
        ++column;
      }
      line += word;
      column += word.size();
      word.clear();
    };
    for (const char* c = e.meaning; *c; ++c) {
      if (*c == '`') continue;
      if (*c == ' ') {
        flush();
      } else {
        word += *c;
      }
    }
    flush();
    out += line + "\n";
  }
  return out;
}

int Report::exit_code() const {
  // Most actionable first: the grader broke; your code does not compile; nothing could run here.
  bool all_pass = !lessons.empty(), build_failed = false, no_gpu = false;
  for (const LessonReport& l : lessons) {
    if (l.status == LessonStatus::error) return kExitInternal;
    build_failed |= l.status == LessonStatus::build_failed;
    no_gpu |= not_gradable_here(l.status);
    all_pass &= l.status == LessonStatus::pass;
  }
  if (build_failed) return kExitBuildFailed;
  if (no_gpu) return kExitNoGpu;
  return all_pass ? kExitOk : kExitFailed;
}

namespace {

// A skip message as the report prints it, inside one line: GoogleTest may end it with a newline
// (seen under compute-sanitizer on the H200).
std::string skip_message(std::string reason) {
  while (!reason.empty() && std::isspace(static_cast<unsigned char>(reason.back())))
    reason.pop_back();
  return reason;
}

// Counts one skipped test of `s` under its reason (without the quick-mode prefix).
void count_skip_reason(StepReport& s, std::string reason) {
  const std::string prefix = protocol::kQuickSkipPrefix;
  if (reason.rfind(prefix, 0) == 0) reason.erase(0, prefix.size());
  reason = skip_message(reason);
  for (auto& [known, n] : s.skip_reasons)
    if (known == reason) {
      ++n;
      return;
    }
  s.skip_reasons.emplace_back(reason, 1);
}

// The step's reason when its only failed test is the speed test: "correct, but not fast enough"
// only when that test says the kernel was below the gate. A speed test that caught wrong timed
// outputs, or a figure no whole kernel can reach, says so (a kernel that remembers results was
// told it was correct); "" for any other failure.
std::string speed_failure_reason(const TestRecord& speed_test) {
  const std::string said = speed_test.failures.empty() ? "" : speed_test.failures.front();
  if (said.find(protocol::kBelowGate) != std::string::npos) return "correct, but not fast enough";
  if (said.rfind(protocol::kTimedResultsWrong, 0) == 0) return protocol::kTimedResultsWrong;
  if (said.rfind(protocol::kRejected, 0) == 0)
    return "faster than a kernel doing the whole task can reach: rejected";
  return "";
}

}  // namespace

std::vector<StepReport> build_steps(const Lesson& lesson, const std::vector<const Step*>& steps,
                                    const std::vector<std::string>& expected,
                                    const std::vector<TestRecord>& records) {
  std::map<std::string, const TestRecord*> by_name;
  for (const TestRecord& r : records) by_name[r.name] = &r;
  std::vector<StepReport> out;
  for (const Step* step : steps) {
    StepReport s;
    s.name = step->name;
    s.title = step->title;
    s.optional = step->optional;
    int skipped = 0;
    for (const std::string& name : expected) {
      if (protocol::step_of(name) != step->name) continue;
      ++s.tests_total;
      auto it = by_name.find(name);
      TestRecord r =
          it != by_name.end() ? *it->second : TestRecord{name, TestStatus::not_run, {}, {}, 0};
      if (auto speed = SpeedFigures::from_properties(r.properties)) s.speed = speed;
      if (r.status == TestStatus::passed) {
        ++s.tests_passed;
      } else if (r.status == TestStatus::skipped) {
        ++skipped;
        if (s.reason.empty() && !r.failures.empty()) s.reason = skip_message(r.failures.front());
        count_skip_reason(s, r.failures.empty() ? "no reason given" : r.failures.front());
      } else {
        s.problems.push_back(r);
      }
    }
    s.tests_skipped = skipped;
    if (s.tests_total == 0) {
      s.status = StepStatus::fail;
      s.reason = fmt::format("no hidden tests found for step {} of {} (a grader bug: report it)",
                             step->name, lesson.id);
    } else if (skipped == s.tests_total) {
      s.status = StepStatus::skipped;
      if (s.reason.empty()) s.reason = "skipped";
    } else if (s.problems.empty()) {
      s.status = StepStatus::pass;
    } else {
      s.status = StepStatus::fail;
      const TestRecord& first = s.problems.front();
      std::string why;
      if (first.status == TestStatus::crashed || first.status == TestStatus::timed_out ||
          first.status == TestStatus::not_run)
        why = first.failures.empty() ? to_string(first.status) : first.failures.front();
      else if (s.speed && s.tests_passed == s.tests_total - 1)  // only the speed test failed
        why = speed_failure_reason(first);
      s.reason = why.empty()
                     ? fmt::format("{} of {} hidden tests failed", s.problems.size(), s.tests_total)
                     : why;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string group_thousands(double value) {
  std::string digits = fmt::format("{:.0f}", std::fabs(value));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (value < 0 ? "-" : "") + out;
}

namespace {

struct Style {
  bool on;
  std::string operator()(const std::string& s, const char* code) const {
    return on ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  }
};

std::string status_word(StepStatus status, const Style& st) {
  switch (status) {
    case StepStatus::pass:
      return st("PASS", "1;32");
    case StepStatus::skipped:
      return st("SKIP", "1;33");
    case StepStatus::fail:
      break;
  }
  return st("FAIL", "1;31");
}

std::string speed_figures(const SpeedFigures& s) {
  // A step that declares its FLOPs (a matrix product) is read in TFLOP/s; the ratio is the same.
  std::string line =
      s.flops > 0
          ? fmt::format("{:.1f} TFLOP/s = {:.1f}% of ceiling", s.tflops(), 100 * s.ratio)
          : fmt::format("{} GB/s = {:.1f}% of ceiling", group_thousands(s.gbps), 100 * s.ratio);
  if (s.verdict == Verdict::impossible) return line + " (impossible: rejected)";
  if (!s.gate) return line + " (no speed gate)";
  const double margin = 100 * (s.ratio - *s.gate);
  // {:g}: a gate of 95.5% reads "95.5", one of 85% reads "85" (never rounded to a whole point).
  return line + fmt::format("; needs {:g}%, {} {:.1f} pts{}", 100 * *s.gate,
                            margin >= 0 ? "margin +" : "short by ", std::fabs(margin),
                            s.close_call ? " (close call)" : "");
}

// The figures, then why the timing went on, if the gate was the reason.
std::string speed_line(const SpeedFigures& s) {
  const std::string note = remeasure_note(s);
  return speed_figures(s) + (note.empty() ? "" : "; " + note);
}

// "1980 -> 1965 MHz", "1980 MHz" (unchanged, or only one reading), "" (no reading).
std::string before_after(const std::optional<int>& before, const std::optional<int>& after,
                         const char* unit) {
  if (before && after && *before != *after)
    return fmt::format("{} -> {} {}", *before, *after, unit);
  if (before || after) return fmt::format("{} {}", before ? *before : *after, unit);
  return "";
}

std::string indent_lines(const std::string& text, const std::string& pad) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += pad + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

// ", 5 skipped under compute-sanitizer (large shape skipped x4, not timed x1)".
std::string skipped_note(const StepReport& s, bool under_sanitizer) {
  std::string why;
  for (const auto& [reason, n] : s.skip_reasons)
    why += fmt::format("{}{} x{}", why.empty() ? "" : ", ", reason, n);
  return fmt::format(", {} skipped{} ({})", s.tests_skipped,
                     under_sanitizer ? " under compute-sanitizer" : "", why);
}

// The line for the problems of `s` after the first `shown`. Those at the end that share their
// status and message (the tests not run after a step's hangs) are said once.
std::string more_problems(const StepReport& s, std::size_t shown) {
  const TestRecord& last = s.problems.back();
  std::size_t alike = 0;  // at the end, like the last
  while (alike < s.problems.size() - shown && last.failures.size() == 1) {
    const TestRecord& t = s.problems[s.problems.size() - 1 - alike];
    if (t.status != last.status || t.failures != last.failures) break;
    ++alike;
  }
  const std::size_t others = s.problems.size() - shown - (alike > 1 ? alike : 0);
  if (alike <= 1) return fmt::format("        ... and {} more (--verbose shows all)\n", others);
  const std::string what = fmt::format("[{}]: {}", to_string(last.status), last.failures.front());
  if (others == 0) return fmt::format("        ... and {} more {}\n", alike, what);
  return fmt::format("        ... and {} more (--verbose shows all), then {} {}\n", others, alike,
                     what);
}

// Under a step that did not pass: why, and its first problems (all with `verbose`).
std::string why_not_passed(const StepReport& s, const TextOptions& opt) {
  std::string out;
  if (!s.reason.empty()) out += "        " + s.reason + "\n";
  const std::size_t shown =
      opt.verbose ? s.problems.size() : std::min<std::size_t>(2, s.problems.size());
  for (std::size_t i = 0; i < shown; ++i) {
    const TestRecord& t = s.problems[i];
    out += fmt::format("        {} [{}]\n", t.name, to_string(t.status));
    for (const std::string& f : t.failures) out += indent_lines(f, "          ");
  }
  if (shown < s.problems.size()) out += more_problems(s, shown);
  return out;
}

// Under a host-call step (lesson 14): the wall-clock times, and whether work outlived the call.
std::string host_call_line(const SpeedFigures& s) {
  std::string line = fmt::format("wall clock: your call {:.2f} ms", *s.call_ms);
  if (s.ceiling_call_ms) line += fmt::format(", the ceiling's {:.2f} ms", *s.ceiling_call_ms);
  // The figure includes the synchronization's own cost on an idle GPU (at most 0.04 ms for the
  // course's solution on the H200, lessons/14_streams/calibration.md): judged on the median of
  // the timed calls, with room to spare, so that one slow sample does not accuse a right call.
  constexpr double kLeftRunningMs = 0.1;
  if (s.left_running_ms)
    line += *s.left_running_ms > kLeftRunningMs
                ? fmt::format(
                      "; the GPU still ran {:.2f} ms after your call returned (median; longest "
                      "{:.2f} ms), counted in your time: finish the work before returning",
                      *s.left_running_ms, s.left_running_ms_max.value_or(*s.left_running_ms))
                : "; nothing ran on after your call returned";
  return line;
}

// Under a lesson's steps: its ceiling, the context figures and the bandwidth formula.
std::string context_lines(const SpeedFigures& context) {
  if (context.call_ms)  // host code timed on the wall clock: no device-memory context applies
    return fmt::format(
               "  ceiling: {} on {}, {} GB/s, timed interleaved with your call in this run\n",
               context.ceiling_kernel, context.shape, group_thousands(context.ceiling_gbps)) +
           fmt::format(
               "  GB/s = bytes the call moves (to the device and back) / wall time of the whole "
               "call, the GPU synchronized before the clock stops, 10^9 B/s; median of {} "
               "interleaved pairs, fresh inputs for every call\n",
               context.pairs);
  if (context.flops > 0)
    return fmt::format(
               "  ceiling: {} on {}, {:.1f} TFLOP/s ({} GB/s), measured interleaved with your "
               "kernel in this run\n",
               context.ceiling_kernel, context.shape, context.ceiling_tflops(),
               group_thousands(context.ceiling_gbps)) +
           fmt::format(
               "  FLOP rate = floating-point operations of the task (2 M N K for C = A B) / "
               "kernel time, TFLOP/s = 10^12 FLOP/s; median of {} interleaved pairs, each launch "
               "on fresh inputs after an L2 flush\n",
               context.pairs);
  return fmt::format(
             "  ceiling: {} on {}, {} GB/s, measured interleaved with your kernel in this run\n",
             context.ceiling_kernel, context.shape, group_thousands(context.ceiling_gbps)) +
         // No cudaMemcpy figure when the test recorded none (e.g. a reduction: one float out).
         (context.memcpy_gbps > 0
              ? fmt::format("  context: cudaMemcpy device-to-device {} GB/s; datasheet peak {} "
                            "GB/s (2 x memory clock x bus width)\n",
                            group_thousands(context.memcpy_gbps),
                            group_thousands(context.peak_gbps))
              : fmt::format("  context: datasheet peak {} GB/s (2 x memory clock x bus width)\n",
                            group_thousands(context.peak_gbps))) +
         fmt::format(
             "  effective bandwidth = (bytes read + bytes written) / kernel time, GB/s = 10^9 "
             "B/s; median of {} interleaved pairs, each launch on fresh inputs after an L2 "
             "flush\n",
             context.pairs);
}

// The compiler's warnings about the student's files: the first lines, all with --verbose.
std::string warnings_lines(const std::string& warnings, const TextOptions& opt) {
  constexpr std::size_t kShown = 12;
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < warnings.size()) {
    std::size_t end = warnings.find('\n', start);
    if (end == std::string::npos) end = warnings.size();
    lines.push_back(warnings.substr(start, end - start));
    start = end + 1;
  }
  std::string out = "  compiler warnings in your code (it built; a warning is often the bug):\n";
  const std::size_t shown = opt.verbose ? lines.size() : std::min(kShown, lines.size());
  for (std::size_t i = 0; i < shown; ++i) out += "    " + lines[i] + "\n";
  if (shown < lines.size())
    out += fmt::format("    ... and {} more lines (--verbose shows all)\n", lines.size() - shown);
  return out;
}

// The memcheck notes that are the same for every lesson of a run (--quick, compute-sanitizer not
// found): the report says them once, not per lesson.
bool note_for_the_whole_run(const LessonReport& l) {
  return l.memcheck == LessonMemcheck::skipped || l.memcheck == LessonMemcheck::unavailable;
}

std::string device_line(const json& d) {
  if (!d.is_object()) return "";
  return fmt::format("GPU {}: {} · sm_{} · {} SMs · {:.0f} MiB L2 · CUDA driver {}, runtime {}",
                     d.value("index", 0), d.value("name", "?"), d.value("sm", "?"),
                     d.value("sms", 0), d.value("l2_bytes", 0.0) / (1 << 20),
                     d.value("driver", "?"), d.value("runtime", "?"));
}

}  // namespace

std::string remeasure_note(const SpeedFigures& s) {
  if (!s.remeasured) return "";
  // pairs_at_first_decision is 0 only in a malformed record: then say what is known.
  const std::string first = s.pairs_at_first_decision > 0
                                ? fmt::format("the first {} pairs", s.pairs_at_first_decision)
                                : std::string("the first pairs");
  return fmt::format("re-measured: {} straddled the gate, decided on {} pairs", first, s.pairs);
}

std::string clocks_line(const SpeedFigures& s) {
  std::vector<std::string> parts;
  // The SM clock always as "before -> after" when both were read: a steady one is news too.
  if (s.sm_clock_mhz_before && s.sm_clock_mhz_after)
    parts.push_back(fmt::format("SM {} -> {} MHz", *s.sm_clock_mhz_before, *s.sm_clock_mhz_after));
  else if (s.sm_clock_mhz_before || s.sm_clock_mhz_after)
    parts.push_back("SM " + before_after(s.sm_clock_mhz_before, s.sm_clock_mhz_after, "MHz"));
  if (std::string mem = before_after(s.mem_clock_mhz_before, s.mem_clock_mhz_after, "MHz");
      !mem.empty())
    parts.push_back("memory " + mem);
  if (std::string t = before_after(s.temperature_c_before, s.temperature_c_after, "C"); !t.empty())
    parts.push_back(t);
  if (s.throttle_reasons) {
    std::string reasons;
    for (const std::string& r : *s.throttle_reasons) reasons += (reasons.empty() ? "" : ", ") + r;
    parts.push_back(reasons.empty() ? "not throttled" : "throttled: " + reasons);
  }
  if (parts.empty()) return "";
  std::string line = "clocks: ";
  for (std::size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : "") + parts[i];
  return line + " (as found, not locked by the grader)";
}

std::string to_text(const Report& report, const TextOptions& opt) {
  const Style st{opt.color};
  std::string out;
  if (std::string d = device_line(report.device); !d.empty()) out += d + "\n";
  int steps_passed = 0, steps_skipped = 0, steps_total = 0;
  std::string next_hint;
  std::vector<std::string> run_notes;  // said once, after every lesson
  // Why a lesson could not be graded here, with the first lesson that said it: without a GPU,
  // `--all` gave the same paragraph once per lesson.
  std::map<std::string, std::string> not_here_said;
  for (const LessonReport& l : report.lessons) {
    out += "\n" + st(fmt::format("{} · {}", l.id, l.title), "1");
    if (!l.variant.empty()) out += fmt::format("  [variant: {}]", l.variant);
    if (l.seed) out += fmt::format("  (seed {})", l.seed);
    out += "\n";
    if (graded_no_step(l.status)) {
      // Nothing was graded on this machine (exit code 3): not a failure of the student's code.
      const bool not_here = not_gradable_here(l.status);
      std::string message = l.message;
      if (not_here) {
        const auto [first, fresh] = not_here_said.emplace(l.message, l.id);
        if (!fresh) message = fmt::format("not graded: the same reason as {} above", first->second);
      }
      out += "  " + status_word(not_here ? StepStatus::skipped : StepStatus::fail, st) + "  " +
             message + "\n";
      if (!l.build_log.empty()) out += indent_lines(l.build_log, "    ");
      continue;
    }
    if (!l.message.empty()) out += "  " + l.message + "\n";
    if (!l.build_warnings.empty()) out += warnings_lines(l.build_warnings, opt);
    const SpeedFigures* context = nullptr;
    for (const StepReport& s : l.steps) {
      ++steps_total;
      steps_passed += s.status == StepStatus::pass;
      steps_skipped += s.status == StepStatus::skipped;
      std::string line = fmt::format("  {}  {:<14} {:>2}/{:<2} tests", status_word(s.status, st),
                                     s.name, s.tests_passed, s.tests_total);
      if (s.tests_skipped > 0 && s.status != StepStatus::skipped)
        line += skipped_note(s, !l.sanitize_tools.empty());
      if (s.speed) {
        line += "   " + speed_line(*s.speed);
        context = &*s.speed;
      }
      if (s.optional) line += "   (optional)";
      out += line + "\n";
      if (s.speed && s.speed->has_clocks()) out += "        " + clocks_line(*s.speed) + "\n";
      if (s.speed && s.speed->call_ms) out += "        " + host_call_line(*s.speed) + "\n";
      if (s.status == StepStatus::pass) continue;
      out += why_not_passed(s, opt);
      if (s.status == StepStatus::fail) {
        const std::string cmd = fmt::format("{} hint {}.{}", opt.grader_command, l.id, s.name);
        out += "        hint: " + cmd + "\n";
        if (next_hint.empty()) next_hint = cmd;
      }
    }
    if (!l.memcheck_note.empty()) {
      if (!note_for_the_whole_run(l))
        out += "  memcheck: " + l.memcheck_note + "\n";
      else if (std::find(run_notes.begin(), run_notes.end(), l.memcheck_note) == run_notes.end())
        run_notes.push_back(l.memcheck_note);
    }
    if (context) out += context_lines(*context);
  }
  if (!run_notes.empty()) out += "\n";
  for (const std::string& note : run_notes) out += "memcheck: " + note + "\n";
  if (steps_total > 0) {
    out += fmt::format("\n{} of {} steps passed", steps_passed, steps_total);
    // A skipped step (every case skipped, with its reason) neither passed nor failed: say so, or
    // "1 of 2 steps passed" reads as a failure of a lesson that passed.
    if (steps_skipped > 0) out += fmt::format(", {} skipped (reasons above)", steps_skipped);
    out += ".";
    if (!next_hint.empty()) out += " Stuck? " + next_hint;
    out += "\n";
  }
  return out;
}

namespace {
json record_json(const TestRecord& t) {
  return {
      {"test", t.name}, {"status", to_string(t.status)}, {"failures", t.failures}, {"ms", t.ms}};
}

}  // namespace

json to_json(const Report& r) {
  json lessons = json::array();
  for (const LessonReport& l : r.lessons) {
    json steps = json::array();
    for (const StepReport& s : l.steps) {
      json problems = json::array();
      for (const TestRecord& t : s.problems) problems.push_back(record_json(t));
      json skipped = json::array();
      for (const auto& [reason, n] : s.skip_reasons)
        skipped.push_back({{"reason", reason}, {"tests", n}});
      json step = {{"step", s.name},
                   {"title", s.title},
                   {"optional", s.optional},
                   {"status", to_string(s.status)},
                   {"reason", s.reason},
                   {"tests_passed", s.tests_passed},
                   {"tests_total", s.tests_total},
                   {"tests_skipped", s.tests_skipped},
                   {"skipped", skipped},
                   {"problems", problems},
                   {"speed", s.speed ? speed_report_json(*s.speed) : json(nullptr)}};
      // Optional fields (format_version 1 only ever gains those): present when there is a stage.
      if (s.memcheck != StepMemcheck::none) step["memcheck"] = to_string(s.memcheck);
      steps.push_back(step);
    }
    json lesson = {{"lesson", l.id},
                   {"title", l.title},
                   {"status", to_string(l.status)},
                   {"message", l.message},
                   {"build_log", l.build_log},
                   {"variant", l.variant},
                   {"seed", l.seed},
                   {"quick", l.kind == RunKind::quick},
                   {"steps", steps}};
    if (l.memcheck != LessonMemcheck::none)
      lesson["memcheck"] = {{"status", to_string(l.memcheck)}, {"note", l.memcheck_note}};
    if (!l.sanitize_tools.empty()) lesson["sanitize_tools"] = l.sanitize_tools;
    if (!l.build_warnings.empty()) lesson["build_warnings"] = l.build_warnings;
    lessons.push_back(lesson);
  }
  return {{"format", "cuda-course-grader-report"},
          {"format_version", 1},
          {"grader_version", r.grader_version},
          {"course_version", r.course_version},
          {"configuration", r.configuration},
          {"device", r.device},
          {"exit_code", r.exit_code()},
          {"lessons", lessons}};
}

namespace {
std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        // XML 1.0 forbids most control characters; colour codes never reach here, but be safe.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r')
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

std::string step_details(const LessonReport& l, const StepReport& s) {
  std::string d =
      fmt::format("{}/{} tests{}\n", s.tests_passed, s.tests_total,
                  s.tests_skipped > 0 ? skipped_note(s, !l.sanitize_tools.empty()) : "");
  if (s.speed) d += speed_line(*s.speed) + "\n";
  if (s.speed && s.speed->has_clocks()) d += clocks_line(*s.speed) + "\n";
  if (!s.reason.empty()) d += s.reason + "\n";
  if (s.status == StepStatus::pass && s.memcheck == StepMemcheck::clean)
    d += "memcheck: no errors on the small shapes\n";
  if (s.status == StepStatus::pass && s.memcheck == StepMemcheck::not_run &&
      !l.memcheck_note.empty())
    d += "memcheck: " + l.memcheck_note + "\n";
  for (const TestRecord& t : s.problems) {
    d += t.name + " [" + to_string(t.status) + "]\n";
    for (const std::string& f : t.failures) d += "  " + f + "\n";
  }
  return d;
}
}  // namespace

std::string to_junit(const Report& r) {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  std::string suites;
  for (const LessonReport& l : r.lessons) {
    int lt = 0, lf = 0, le = 0, ls = 0;
    std::string cases;
    if (l.steps.empty()) {
      // Nothing was graded (build failure, no GPU): one error case keeps the failure visible.
      ++lt;
      ++le;
      cases += fmt::format(
          "    <testcase classname=\"{0}\" name=\"{0}\" time=\"0\">\n"
          "      <error type=\"{1}\" message=\"{2}\">{3}</error>\n    </testcase>\n",
          xml_escape(l.id), xml_escape(to_string(l.status)), xml_escape(l.message),
          xml_escape(l.build_log.empty() ? l.message : l.build_log));
    }
    for (const StepReport& s : l.steps) {
      ++lt;
      cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\" time=\"0\">\n",
                           xml_escape(l.id), xml_escape(s.name));
      if (s.status == StepStatus::fail) {
        ++lf;
        cases += fmt::format("      <failure type=\"fail\" message=\"{}\">{}</failure>\n",
                             xml_escape(s.reason), xml_escape(step_details(l, s)));
      } else if (s.status == StepStatus::skipped) {
        ++ls;
        cases += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(s.reason));
      } else {
        cases += fmt::format("      <system-out>{}</system-out>\n", xml_escape(step_details(l, s)));
      }
      cases += "    </testcase>\n";
    }
    suites += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
        "time=\"0\">\n{}  </testsuite>\n",
        xml_escape(l.id), lt, lf, le, ls, cases);
    tests += lt;
    failures += lf;
    errors += le;
    skipped += ls;
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"cuda-course\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"{}\" time=\"0\">\n{}</testsuites>\n",
      tests, failures, errors, skipped, suites);
}

json to_gradescope(const Report& r, const std::string& text_report) {
  json tests = json::array();
  double score = 0;
  for (const LessonReport& l : r.lessons) {
    if (l.steps.empty()) {
      tests.push_back({{"name", l.id},
                       {"score", 0},
                       {"max_score", 1},
                       {"status", "failed"},
                       {"output", l.message + (l.build_log.empty() ? "" : "\n" + l.build_log)}});
      continue;
    }
    for (const StepReport& s : l.steps) {
      // Optional steps (extensions) are reported but worth no points: skipping one on an older
      // GPU, or not attempting it, must not lower a grade. A required step that was skipped
      // (every test skipped for a reason of the grading machine: too little device memory,
      // profiler counters not permitted) was not graded, so it is worth no points either, and
      // says so in its name: it neither passed nor failed.
      const bool passed = s.status == StepStatus::pass;
      const bool skipped = s.status == StepStatus::skipped;
      const double points = s.optional || skipped ? 0 : 1;
      score += passed ? points : 0;
      const std::string suffix =
          s.optional ? " (optional)" : (skipped ? " (skipped here: not graded)" : "");
      tests.push_back({{"name", l.id + "." + s.name + suffix},
                       {"score", passed ? points : 0},
                       {"max_score", points},
                       {"status", passed || skipped ? "passed" : "failed"},
                       {"output", step_details(l, s)}});
    }
  }
  return {{"score", score}, {"output", text_report}, {"tests", tests}, {"visibility", "visible"}};
}

}  // namespace course
