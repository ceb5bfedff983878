#include "harness/speed.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

#include "course/manifest.hpp"
#include "harness/clocks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device.hpp"
#include "harness/record.hpp"

namespace harness {

namespace {
const course::Manifest& manifest() {
  static const course::Manifest m = [] {
    const char* env = std::getenv("COURSE_MANIFEST");
    return course::Manifest::load(env && *env ? env : COURSE_MANIFEST_PATH);
  }();
  return m;
}

const DeviceInfo& device() {
  static const DeviceInfo d = query_device();
  return d;
}
}  // namespace

std::optional<double> gate_for(const std::string& lesson, const std::string& step) {
  const course::Lesson* l = manifest().find(lesson);
  const course::Step* s = l ? l->find_step(step) : nullptr;
  if (!s)
    throw std::runtime_error(fmt::format("{}.{} is not in the course manifest", lesson, step));
  if (!s->gate) return std::nullopt;
  return s->gate->fraction_of_ceiling;
}

std::string unsupported(const std::string& lesson, const std::string& step) {
  const course::Lesson* l = manifest().find(lesson);
  const course::Step* s = l ? l->find_step(step) : nullptr;
  const std::string need = s && !s->requires_cc.empty() ? s->requires_cc : (l ? l->min_cc : "");
  const DeviceInfo& d = device();
  if (course::cc_at_least(fmt::format("{}.{}", d.cc_major, d.cc_minor), need)) return "";
  return fmt::format("{}.{} needs compute capability {}; this GPU ({}) is {}.{}", lesson, step,
                     need, d.name, d.cc_major, d.cc_minor);
}

long long timing_side(std::size_t buffers, std::size_t element_bytes) {
  const DeviceInfo& d = device();
  auto bytes = [&](long long side) {
    return static_cast<double>(buffers * element_bytes) * static_cast<double>(side) * side;
  };
  long long side = 8192;
  while (bytes(side) < 4.0 * d.l2_bytes) side *= 2;
  while (side > 256 && bytes(side) + 2.0 * d.l2_bytes > 0.7 * d.free_bytes) side /= 2;
  return side / 32 * 32;
}

void run_speed_check(const SpeedCheck& c) {
  const std::optional<double> gate = gate_for(c.lesson, c.step);
  record("kind", "speed");
  record("shape", c.shape);
  record("bytes", c.bytes);
  record("ceiling_kernel", c.ceiling_kernel);
  if (gate)
    record("gate", *gate);
  else
    record_null("gate");

  // 1. Never time a wrong kernel: a kernel that skips work would look fast.
  if (std::string wrong = c.verify(seed()); !wrong.empty()) {
    ADD_FAILURE() << "not timed: on the timing shape " << c.shape
                  << " the output is wrong: " << wrong;
    return;
  }

  // 2. Time against the ceiling, interleaved, L2 flushed before every sample. The clocks and
  // temperature as found right before and right after go into the report (never locked here).
  L2Flusher flusher(device().l2_bytes);
  const course::ClockSample before = sample_clocks();
  const PairedTiming t =
      time_pairs(c.ceiling, c.student, c.bytes, gate, course::SamplingPolicy{}, flusher);
  record_clocks(before, sample_clocks());
  const course::GateDecision d = course::decide_gate(t.ratio_summary, gate);
  const double memcpy = memcpy_gbps(c.memcpy_dst, c.memcpy_src, c.memcpy_bytes, flusher);

  record("gbps", t.student_gbps);
  record("ceiling_gbps", t.ceiling_gbps);
  record("ratio", t.ratio_summary.median);
  record("ratio_q1", t.ratio_summary.q1);
  record("ratio_q3", t.ratio_summary.q3);
  record("pairs", static_cast<double>(t.ratio.size()));
  record("timing_seconds", t.seconds);
  record("verdict", course::to_string(d.verdict));
  record("close_call", d.close_call);
  // Whether the loop went on because the spread straddled the gate (after how many pairs).
  record("remeasured", t.first_straddle_pairs > 0);
  if (t.first_straddle_pairs > 0)
    record("pairs_at_first_decision", static_cast<double>(t.first_straddle_pairs));
  record("memcpy_gbps", memcpy);
  record("peak_gbps", device().datasheet_peak_gbps());

  // 3. Fresh inputs after timing: a kernel that cached its answer, or reads stale output, fails.
  if (std::string wrong = c.verify(seed() + 1); !wrong.empty()) {
    ADD_FAILURE() << "after timing, on fresh inputs (seed " << seed() + 1
                  << "), the output is wrong: " << wrong
                  << ". A kernel must compute its result from its input on every launch";
    return;
  }
  if (d.verdict != course::Verdict::pass) {
    ADD_FAILURE() << fmt::format(
        "too slow, below the gate: {:.0f} GB/s against a ceiling of {:.0f} GB/s: {}",
        t.student_gbps, t.ceiling_gbps, d.reason);
  }
}

}  // namespace harness
