#include "tool_run.hpp"

#include <algorithm>
#include <set>

#include "course/text_file.hpp"
#include "test_run.hpp"

namespace driver {

using course::protocol::TestRecord;

namespace {

// The hidden tests under compute-sanitizer `tool`: small shapes only, untimed, no
// rebuild, with time limits that allow for its slowdown.
GradeOptions under_sanitizer(const GradeOptions& base, const SanitizerTool& tool) {
  GradeOptions o = base;
  o.build = false;
  o.small_shapes_untimed = true;
  o.quiet_gpu_lock.clear();  // nothing under a tool is timed
  if (!tool.beside_tests) {
    o.kernel_timeout = std::max(o.kernel_timeout, 60.0);  // sanitizers slow kernels down a lot
    o.test_timeout = std::max(o.test_timeout, 600.0);
  }
  o.wrapper = {tool.program, "--tool", tool.name, "--error-exitcode", "97", "--print-limit", "10"};
  if (tool.name == "racecheck") o.wrapper.insert(o.wrapper.end(), {"--racecheck-report", "all"});
  // Red zones after every allocation: a read just past one buffer would otherwise land in the
  // next one, which memcheck counts as valid memory.
  if (tool.name == "memcheck") o.wrapper.insert(o.wrapper.end(), {"--padding", "4096"});
  return o;
}

// The log folder of a run under `tool`.
std::string run_name(const SanitizerTool& tool) {
  return tool.beside_tests ? tool.name + "-beside" : tool.name;
}

void add_findings(SanitizerFindings& to, const SanitizerFindings& f) {
  to.errors += f.errors;
  for (const std::string& l : f.first_lines)
    if (to.first_lines.size() < 8) to.first_lines.push_back(l);
}

// The tool's findings per step of `run`. memcheck reports the bad accesses of a launch and then
// makes the launch fail (64 bad writes in one launch gave 64 reports on the H200); the test then
// fails with a sticky error that ends its process, so a process's findings belong to the
// step of the test that ended it. The findings of a process that no test ended (errors that stop
// no kernel, such as a failed CUDA call) belong to the steps of the tests it ran: to that step if
// there is one; if there are several (or none) they cannot be told apart, and those steps (or all
// of `steps`) go to `unclear`.
std::map<std::string, SanitizerFindings> findings_by_step(
    const TestRun& run, const std::vector<const course::Step*>& steps,
    std::set<std::string>& unclear) {
  std::map<std::string, SanitizerFindings> found;
  for (const ProcessRun& p : run.processes) {
    const SanitizerFindings f = sanitizer_findings(part_of(run.log_path, p.log_from, p.log_to));
    if (f.errors == 0) continue;
    std::set<std::string> of;
    if (!p.ended_on.empty())
      of.insert(course::protocol::step_of(p.ended_on));
    else
      for (const std::string& t : p.tests) of.insert(course::protocol::step_of(t));
    if (of.empty())
      for (const course::Step* s : steps) of.insert(s->name);
    if (of.size() == 1)
      add_findings(found[*of.begin()], f);
    else
      unclear.insert(of.begin(), of.end());
  }
  return found;
}

}  // namespace

bool run_step_under_tool(const course::Lesson& lesson, const course::Step& step,
                         const GradeOptions& options, const SanitizerTool& tool,
                         nlohmann::json& device, course::LessonReport& report, StepUnderTool& out) {
  GradeOptions o = under_sanitizer(options, tool);
  // A folder per tool and step: the report's "output in ..." must still exist at the end.
  o.run_name = run_name(tool) + "-" + step.name;
  TestRun run;
  if (!run_tests(lesson, {&step}, o, device, report, run)) return false;
  out.found = sanitizer_findings(course::read_text(run.log_path).value_or(""));
  out.expected = run.expected;
  out.records = run.records;
  out.log_path = run.log_path;
  return true;
}

bool run_steps_under_tool(const course::Lesson& lesson,
                          const std::vector<const course::Step*>& steps,
                          const GradeOptions& options, const SanitizerTool& tool,
                          nlohmann::json& device, course::LessonReport& report,
                          std::map<std::string, StepUnderTool>& out) {
  GradeOptions o = under_sanitizer(options, tool);
  o.run_name = run_name(tool);
  TestRun run;
  if (!run_tests(lesson, steps, o, device, report, run)) return false;
  std::set<std::string> unclear;
  for (auto& [step, found] : findings_by_step(run, steps, unclear)) out[step].found = found;
  for (const std::string& t : run.expected) out[course::protocol::step_of(t)].expected.push_back(t);
  for (const TestRecord& r : run.records)
    out[course::protocol::step_of(r.name)].records.push_back(r);
  for (const course::Step* s : steps) {
    out[s->name].log_path = run.log_path;
    if (unclear.count(s->name) &&
        !run_step_under_tool(lesson, *s, options, tool, device, report, out[s->name]))
      return false;
  }
  return true;
}

}  // namespace driver
