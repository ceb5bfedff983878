/// @file timing.hpp
/// @brief The measurement method of every gate and of `bench`.
///
/// - Effective bandwidth = (bytes the task must read + bytes it must write) / kernel time, in
///   GB/s = 10^9 B/s.
/// - The ceiling is a copy kernel of the same geometry (the lesson's "copy rung"), timed in the
///   same run, interleaved with the student's kernel: ceiling, student, ceiling, student, ...
/// - Before each launch, outside the timed region, the launch's inputs are drawn anew (no launch
///   of the process sees the inputs of an earlier one: a kernel that remembers a result gains
///   nothing) and its outputs poisoned (TimedLaunches::prepare), then the L2 is flushed by
///   writing a buffer twice its size, so no kernel reads its input from a warm cache. Working
///   sets are at least 4x the L2 (chosen by the test). The persisting-L2 set-aside is 0 and its
///   lines are reset before every batch of launches, so no access policy can keep data in L2.
/// - Each launch is timed with CUDA events. Three untimed warm-up launches of each kernel first.
/// - Pairs are taken in batches of 10 until the verdict is certain, or (from 30 pairs on) the
///   per-pair ratio's interquartile range does not straddle the gate and either that range is
///   under 1% of the median or the median's 99% confidence interval is clear of the gate and of
///   the impossible bound, or a cap is hit (course::SamplingPolicy).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "course/stats.hpp"

/// The measurement harness linked into every hidden-test binary: buffers, inputs, comparison,
/// CUDA error handling, timing and the speed test.
namespace harness {

/// Launches one kernel on the given stream and returns the launch error (course launchers have
/// exactly this shape).
using Launch = std::function<cudaError_t(cudaStream_t)>;

/// Writes a buffer of twice the L2 size before each sample, evicting the previous kernel's data.
class L2Flusher {
 public:
  /// Allocates the scratch buffer: 2 x `l2_bytes` (8 MiB when `l2_bytes` is 0).
  /// @throws CudaError when the allocation fails.
  explicit L2Flusher(std::size_t l2_bytes);
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  /// Enqueues a cudaMemsetAsync of the whole scratch buffer on `stream` (a different byte value
  /// each call). Asynchronous: it is ordered before the next launch on the same stream.
  void flush(cudaStream_t stream);

 private:
  void* scratch_ = nullptr;
  std::size_t bytes_ = 0;
  int value_ = 0;
};

/// Converts a kernel time to effective bandwidth: bytes / (ms * 1e-3) / 1e9.
double gbps(double bytes, double ms);

/// Interleaved timing of a ceiling kernel and a student kernel that move the same `bytes`.
struct PairedTiming {
  /// Ceiling kernel time of each pair, ms.
  std::vector<double> ceiling_ms, student_ms, ratio;  ///< per pair; ratio = ceiling/student time
  /** @var student_ms
      Student kernel time of each pair, ms. */
  course::Summary ratio_summary;  ///< summary of `ratio`: the gate is decided on it
  double ceiling_gbps = 0;        ///< from the median ceiling time
  double student_gbps = 0;        ///< from the median student time
  double seconds = 0;             ///< wall time of the timing loop
  /// Pairs taken when the ratio's interquartile range first straddled the gate, so that the loop
  /// went on (re-measured) for that reason; 0 when it never did (course::first_straddle()).
  std::size_t first_straddle_pairs = 0;
  course::SamplingState stopped = course::SamplingState::settled;  ///< why the loop stopped
};

/// The two kernels of a paired timing and what runs around each launch, outside the timed
/// region.
struct TimedLaunches {
  Launch ceiling;  ///< the step's ceiling (copy or read rung, library call)
  Launch student;  ///< the student's kernel, moving the same bytes
  /// Enqueues on the stream what launch number `launch` needs first (launches are counted from
  /// 0 over the warm-up and timed launches of both kernels, in order): fresh inputs, poisoned
  /// outputs. May be empty (nothing to prepare).
  std::function<void(std::uint64_t launch, cudaStream_t stream)> prepare;
  /// Called after the student's timed launch number `launch` (timed pair `pair`, from 0) is
  /// enqueued, e.g. to keep its outputs for checking; it may synchronize. May be empty.
  std::function<void(std::uint64_t launch, std::size_t pair, cudaStream_t stream)> after_student;
};

/// Times `k.ceiling` and `k.student` alternately, each launch after k.prepare, an L2 flush and
/// between two CUDA events: three untimed warm-up pairs, then batches of 10 pairs (of
/// policy.early_pairs, when fewer: course::sampling_policy() of a step without a gate) until
/// course::keep_sampling() says stop. After each batch the course::sampling_state() is folded
/// into PairedTiming::first_straddle_pairs, so the result says whether the gate made the loop go
/// on.
/// @param k       the kernels and their preparation
/// @param bytes   bytes the task must read + write, for the GB/s figures
/// @param gate    the step's gate (fraction of the ceiling), if any: sampling goes on while the
///                ratio's interquartile range straddles it
/// @param impossible_above the step's impossible bound (course::decide_gate())
/// @param policy  minimum and maximum pairs, target spread, time cap
/// @param flusher flushes the L2 before every launch
/// @param stream  stream of all launches
/// @throws CudaError when a launch fails or a kernel does not finish (see wait()).
PairedTiming time_pairs(const TimedLaunches& k, double bytes, std::optional<double> gate,
                        double impossible_above, const course::SamplingPolicy& policy,
                        L2Flusher& flusher, cudaStream_t stream = 0);

/// As above for two kernels that need nothing prepared (the bench's tables, whose inputs are
/// not the student's business).
PairedTiming time_pairs(const Launch& ceiling, const Launch& student, double bytes,
                        std::optional<double> gate, const course::SamplingPolicy& policy,
                        L2Flusher& flusher, cudaStream_t stream = 0);

/// Gives no access persisting status in L2 for the rest of the process: the persisting set-aside
/// limit becomes 0 (cudaLimitPersistingL2CacheSize) and lines already persisting are reset to
/// normal (cudaCtxResetPersistingL2Cache, which takes effect when it returns). Nothing to do on
/// GPUs without the feature (compute capability below 8.0). @throws CudaError.
void reset_persisting_l2();

/// Median time in ms of one kernel over `samples` flushed launches (for figures without a pair,
/// such as cudaMemcpy for context).
course::Summary time_alone(const Launch& launch, int samples, L2Flusher& flusher,
                           cudaStream_t stream = 0);

/// cudaMemcpy device-to-device of `bytes` (so 2 x bytes move), as effective GB/s: context only.
double memcpy_gbps(void* dst, const void* src, std::size_t bytes, L2Flusher& flusher);

// ---------------------------------------------------------------------------------------------
// Timing shapes: every speed test's working set is at least 4x the L2 (docs/INSTRUCTORS.md, "Threat
// model").

/// Side of a square timing matrix of `buffers` arrays of `element_bytes`-byte elements: 8192
/// (where our gates were calibrated), doubled until the arrays are at least 4x the L2, halved
/// while they would not fit in 70% of free memory beside the L2 flush buffer; a multiple of 32.
long long timing_side(std::size_t buffers, std::size_t element_bytes);
/// Elements per array for a 1-D timing shape: timing_side(buffers, element_bytes) squared
/// (2^26 on GPUs with up to 128 MiB of L2).
long long timing_elements(std::size_t buffers, std::size_t element_bytes);

}  // namespace harness
