/// @file host_timing.hpp
/// @brief The speed test of a step whose timed code is a host function the student writes
/// (lesson 14: a pipeline of copies and kernels over streams it creates itself). Events on one
/// stream cannot time work the student spreads over streams of its own, so the call is timed on
/// the host's steady clock, with the device synchronized before the clock starts and before it
/// stops: work the call leaves running after it returns is counted, and reported apart.
///
/// Per sample, in this order: the ceiling, timed by the lesson's own code (HostCalls::ceiling_ms);
/// fresh inputs and poisoned outputs (HostCalls::prepare), then cudaDeviceSynchronize; the clock
/// starts; the student's call; right on its return, before anything synchronizes, the check of
/// what the call promised to have finished (HostCalls::on_return, not counted); then
/// cudaDeviceSynchronize and the clock stops; then the sample's output is verified
/// (HostCalls::verify). Every timed sample is verified, so a function that remembers an earlier
/// result gains nothing. The ratio of each pair is ceiling time / student time, decided against
/// the gate by the same statistics as every speed test (course/stats.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/stats.hpp"
#include "harness/lesson.hpp"
#include "harness/timing.hpp"

namespace harness {

/// Wall-clock time of `work` in ms, from a synchronized device to a synchronized device
/// (cudaDeviceSynchronize before the clock starts and before it stops).
/// @throws CudaError when a synchronization fails; whatever `work` throws.
double wall_ms(const std::function<void()>& work);

/// What a host-call speed test runs for each sample. `draw_seed` is the sample's own seed (from
/// a secret source, distinct for every sample): prepare() draws its inputs from it, verify()
/// computes the expected output from it.
struct HostCalls {
  /// Times the step's ceiling on this sample's buffers, in ms (e.g. with wall_ms()).
  std::function<double(std::uint64_t draw_seed)> ceiling_ms;
  /// Draws the sample's inputs anew and poisons its outputs (the device is synchronized after).
  std::function<void(std::uint64_t draw_seed)> prepare;
  /// The student's host function on the prepared buffers; its return value.
  std::function<cudaError_t()> call;
  /// Right after call() returns, before any synchronization: "" when the output is complete, as
  /// a synchronous function promises, else what is missing. May be empty (nothing to check).
  std::function<std::string(std::uint64_t draw_seed)> on_return;
  /// After the device is synchronized: "" when the sample's output is right, else the mismatch.
  std::function<std::string(std::uint64_t draw_seed)> verify;
};

/// The result of time_host_calls(): PairedTiming's figures (ceiling_ms: the ceiling's times,
/// student_ms: the call's, from synchronized device to synchronized device), and what the call
/// left behind.
struct HostCallTiming {
  PairedTiming pairs;                   ///< per-sample times and ratios, as for kernels
  std::vector<double> left_running_ms;  ///< per sample: how long the device still ran after return
  /// The first sample whose call failed, returned with its output incomplete, or left a wrong
  /// output: what was wrong ("" when none did; the loop stops at it).
  std::string failure;
};

/// Times `k` in samples (ceiling, then the student's call) until course::keep_sampling() says
/// stop, two untimed warm-up samples first. Every sample is verified; the first failure stops
/// the loop (HostCallTiming::failure).
/// @param k       the sample's calls
/// @param bytes   bytes the task moves (for the GB/s figures), e.g. host to device + device to host
/// @param gate    the step's gate (fraction of the ceiling), if any: sampling goes on while the
///                ratio's interquartile range straddles it
/// @param impossible_above the step's impossible bound (course::decide_gate())
/// @param policy  minimum and maximum samples, target spread, time cap
/// @throws CudaError when a synchronization fails.
HostCallTiming time_host_calls(const HostCalls& k, double bytes, std::optional<double> gate,
                               double impossible_above, const course::SamplingPolicy& policy);

/// What a host-call speed test hands the harness: the calls of every sample, the bytes moved
/// and the shape timed (e.g. "n = 67,108,864 floats (256 MiB)").
struct HostSpeedTest {
  HostCalls calls;    ///< see HostCalls
  double bytes = 0;   ///< bytes the task moves
  std::string shape;  ///< what was timed, in the lesson's words
  /// Optional advice appended to a "below the gate" failure (e.g. "the buffers are pageable").
  std::function<std::string()> advice_when_slow;
};

namespace detail {
void run_host_speed(const std::string& lesson, const std::string& step,
                    const std::function<HostSpeedTest()>& setup);
// Records what the report shows for a speed test (lesson.cpp; course::SpeedFigures reads it).
void record_timing(const PairedTiming& t, const course::GateDecision& d);
// Records a speed test's step: its kind, ceiling and gate (lesson.cpp); returns the gate.
std::optional<double> record_speed_step(const course::Step& s);
}  // namespace detail

/// Registers "<step>/Speed.timed" for a step whose timed code is a host function: `setup()`
/// (called in the test process) allocates the buffers and returns the sample's calls; the first
/// sample is checked untimed, then the samples are timed against the step's ceiling and gate
/// from the manifest. Skipped under --quick (not timed).
template <typename Step>
void host_speed(Step step, std::function<HostSpeedTest()> setup) {
  const std::string lesson = lesson_id(step), s = step_name(step);
  detail::register_timed_test(s, [=] { detail::run_host_speed(lesson, s, setup); });
}

}  // namespace harness
