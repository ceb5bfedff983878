/// @file speed.hpp
/// @brief The speed test of a step: verify, time against the ceiling, decide the gate, verify
/// again on fresh inputs. One function, so every lesson gates the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "harness/timing.hpp"

namespace harness {

/// The step's gate (fraction of the ceiling) from the course manifest, which is read from
/// $COURSE_MANIFEST or else the lessons/course.json this binary was built from.
/// @throws std::runtime_error if the lesson or step is not in the manifest.
std::optional<double> gate_for(const std::string& lesson, const std::string& step);

/// Why this GPU cannot run the step ("needs compute capability 8.0; this GPU is 7.5"), from the
/// step's requirement in the manifest; "" when it can. Tests skip with this reason.
std::string unsupported(const std::string& lesson, const std::string& step);

/// Side of a square timing matrix of `buffers` arrays of `element_bytes`-byte elements: 8192
/// (where our gates were calibrated), doubled until the arrays are at least 4x the L2, halved
/// while they would not fit in 70% of free memory beside the L2 flush buffer; a multiple of 32.
long long timing_side(std::size_t buffers, std::size_t element_bytes);

/// Everything run_speed_check needs from a lesson's test.
struct SpeedCheck {
  std::string lesson;          ///< "07_transpose"
  std::string step;            ///< "tiled_padded"
  std::string ceiling_kernel;  ///< name printed next to the ceiling figure
  std::string shape;           ///< what is timed, with its unit: "8192x8192 floats"
  double bytes = 0;            ///< bytes the task must read + write
  Launch ceiling;              ///< the copy rung, same geometry
  Launch student;              ///< the student's kernel on the same buffers
  /// Uploads fresh inputs made from `seed`, poisons the output, runs the student's kernel once
  /// and returns "" when the output is right, else what is wrong.
  std::function<std::string(std::uint64_t seed)> verify;
  /// Buffers for the cudaMemcpy figure (context only): copies `memcpy_bytes` from src to dst.
  const void* memcpy_src = nullptr;
  void* memcpy_dst = nullptr;    ///< device destination of the cudaMemcpy figure
  std::size_t memcpy_bytes = 0;  ///< bytes copied (so 2 x memcpy_bytes are read + written)
};

/// Runs the speed test of one step inside a GoogleTest test: reports failures with
/// ADD_FAILURE and records the figures (see course::SpeedFigures) for the grader, with the GPU's
/// clocks and temperature right before and right after the timing loop where NVML can read them
/// (harness/clocks.hpp).
void run_speed_check(const SpeedCheck& check);

}  // namespace harness
