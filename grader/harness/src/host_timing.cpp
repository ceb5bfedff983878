#include "harness/host_timing.hpp"

#include <fmt/format.h>

#include <chrono>
#include <random>

#include "course/protocol.hpp"
#include "course/speed_record.hpp"
#include "harness/clocks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/draw.hpp"
#include "harness/manifest_step.hpp"
#include "harness/quiet_gpu.hpp"
#include "harness/record.hpp"
#include "harness/reporter.hpp"

namespace harness {

namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void sync(const char* what) {
  check(cudaDeviceSynchronize(), what);
}

std::string error_text(cudaError_t err) {
  return fmt::format("{} ({})", cudaGetErrorName(err), cudaGetErrorString(err));
}

// One sample of the student's call: its time from a synchronized device to a synchronized
// device, less the on-return check; how long the device ran after the return; what went wrong.
struct Sample {
  double ms = 0, left_running_ms = 0;
  std::string failure;
};

Sample run_sample(const HostCalls& k, std::uint64_t draw_seed) {
  Sample s;
  k.prepare(draw_seed);
  sync("prepare a timed call");
  const Clock::time_point start = Clock::now();
  const cudaError_t err = k.call();
  const Clock::time_point returned = Clock::now();
  const std::string incomplete = k.on_return ? k.on_return(draw_seed) : std::string();
  const Clock::time_point checked = Clock::now();
  // The call's own errors are its result; a sticky error shows here as the synchronization's.
  const cudaError_t pending = cudaDeviceSynchronize();
  const Clock::time_point end = Clock::now();
  s.ms = ms_between(start, returned) + ms_between(checked, end);
  s.left_running_ms = ms_between(checked, end);
  if (err != cudaSuccess)
    s.failure = fmt::format("the call returned {}, expected cudaSuccess", error_text(err));
  else if (pending != cudaSuccess)
    s.failure = fmt::format("after the call returned, the device reported {}", error_text(pending));
  else if (!incomplete.empty())
    s.failure = incomplete;
  else
    s.failure = k.verify(draw_seed);
  return s;
}

}  // namespace

double wall_ms(const std::function<void()>& work) {
  sync("synchronize before timing");
  const Clock::time_point start = Clock::now();
  work();
  sync("synchronize after timing");
  return ms_between(start, Clock::now());
}

HostCallTiming time_host_calls(const HostCalls& k, double bytes, std::optional<double> gate,
                               double impossible_above, const course::SamplingPolicy& policy) {
  wait_for_quiet_gpu();  // nothing is timed beside other work (at once if had: run_host_speed())
  // Each sample's seed comes from a secret source, never from the printed seed (as run_speed's).
  const std::uint64_t base =
      (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  std::uint64_t sample = 0;
  auto next_seed = [&] { return mix(base ^ ((++sample) * 0xA24BAED4963EE407ull)); };
  HostCallTiming r;
  for (int i = 0; i < 2; ++i) {  // warm-up: module load, first-use allocations, clocks up
    const std::uint64_t seed = next_seed();
    k.ceiling_ms(seed);
    if (const Sample s = run_sample(k, seed); !s.failure.empty()) {
      r.failure = s.failure;
      return r;
    }
  }
  PairedTiming& t = r.pairs;
  const Clock::time_point start = Clock::now();
  for (;;) {
    const std::uint64_t seed = next_seed();
    const double c = k.ceiling_ms(seed);
    const Sample s = run_sample(k, seed);
    if (!s.failure.empty()) {
      r.failure = fmt::format("timed call {}: {}", t.ratio.size() + 1, s.failure);
      return r;
    }
    t.ceiling_ms.push_back(c);
    t.student_ms.push_back(s.ms);
    t.ratio.push_back(s.ms > 0 ? c / s.ms : 0);
    r.left_running_ms.push_back(s.left_running_ms);
    t.ratio_summary = course::summarize(t.ratio);
    t.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const course::SamplingState state = course::sampling_state(
        t.ratio_summary, gate, t.ratio.size(), t.seconds, policy, impossible_above);
    t.first_straddle_pairs = course::first_straddle(t.first_straddle_pairs, state, t.ratio.size());
    t.stopped = state;
    // Checked after every sample rather than every 10 (a sample is a synchronized call).
    if (t.ratio.size() % 10 == 0 && !course::keep_sampling(state)) break;
    if (state == course::SamplingState::capped) break;
  }
  t.ceiling_gbps = gbps(bytes, course::summarize(t.ceiling_ms).median);
  t.student_gbps = gbps(bytes, course::summarize(t.student_ms).median);
  return r;
}

namespace detail {

// SamplingPolicy{} with 2 s of timing at most instead of 5. A call timed on the wall clock jitters
// more than a kernel between CUDA events, so lesson 14's pairs ran on towards the 5 s cap
// without a certain verdict sooner (pinned 188 pairs, overlap 134-150, in one grade of the
// fifteenth session, docs/measured/H200.md). 30 of 14's pairs take about 1 s there (the same
// session), and the cap never stops sampling before SamplingPolicy::min_pairs.
course::SamplingPolicy host_sampling_policy() {
  course::SamplingPolicy p;
  p.max_seconds = 2.0;
  p.pairs_before_time_cap = p.min_pairs;
  return p;
}

void run_host_speed(const std::string& lesson, const std::string& step,
                    const std::function<HostSpeedTest()>& setup) {
  if (quick()) GTEST_SKIP() << course::protocol::kQuickSkipPrefix << "not timed";
  if (std::string why = unsupported(lesson, step); !why.empty()) GTEST_SKIP() << why;
  const course::Step& s = manifest_step(lesson, step);
  const std::optional<double> gate = record_speed_step(s);
  if (not_timed_after_failed_cases(step)) return;
  wait_for_quiet_gpu();  // before setup() allocates, as run_speed() before its first check
  try {
    const HostSpeedTest test = setup();
    record(course::speed_key::kShape, test.shape);
    record(course::speed_key::kBytes, test.bytes);
    const course::ClockSample before = sample_clocks();
    const HostCallTiming r = time_host_calls(test.calls, test.bytes, gate,
                                             s.ceiling.impossible_above(), host_sampling_policy());
    record_clocks(before, sample_clocks());
    if (!r.failure.empty()) {
      ADD_FAILURE() << "on " << test.shape << ": " << r.failure;
      return;
    }
    const PairedTiming& t = r.pairs;
    const course::GateDecision d =
        course::decide_gate(t.ratio_summary, gate, s.ceiling.impossible_above());
    record_timing(t, d);
    const course::Summary left = course::summarize(r.left_running_ms);
    record(course::speed_key::kLeftRunningMs, left.median);
    record(course::speed_key::kLeftRunningMsMax, left.max);
    record(course::speed_key::kCallMs, course::summarize(t.student_ms).median);
    record(course::speed_key::kCeilingMs, course::summarize(t.ceiling_ms).median);
    if (d.verdict == course::Verdict::fail) {
      std::string advice = test.advice_when_slow ? test.advice_when_slow() : std::string();
      ADD_FAILURE() << fmt::format(
          "too slow, {}: {:.2f} ms per call ({:.1f} GB/s) against {:.2f} ms for the "
          "ceiling ({:.1f} GB/s): {}{}",
          course::protocol::kBelowGate, course::summarize(t.student_ms).median, t.student_gbps,
          course::summarize(t.ceiling_ms).median, t.ceiling_gbps, d.reason,
          advice.empty() ? "" : ". " + advice);
    } else if (d.verdict == course::Verdict::impossible) {
      ADD_FAILURE() << fmt::format("{}: {:.1f} GB/s against a ceiling of {:.1f} GB/s: {}",
                                   course::protocol::kRejected, t.student_gbps, t.ceiling_gbps,
                                   d.reason);
    }
  } catch (const CudaError& e) {
    ADD_FAILURE() << "while timing on " << lesson << "." << step << ": " << e.what();
  } catch (const SkipCase& e) {
    GTEST_SKIP() << e.what();
  }
}

}  // namespace detail

}  // namespace harness
