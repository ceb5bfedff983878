/// @file clocks.hpp
/// @brief The GPU's clocks and temperature around a speed test's timing loop: one reading as the
/// harness takes it (through NVML, see harness/clocks.hpp), and the properties it records for the
/// grader (course::SpeedFigures reads them back). GPU-free, so the grader and its CPU tests use it.
///
/// The grader never locks or changes clocks: the figures say at what clocks, as found, a gate was
/// measured, so that a slow result on a throttling or idle-clocked GPU can be told apart.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace course {

/// One reading of the GPU. Each figure is absent when it could not be read (no NVML, no driver,
/// a query the GPU does not support).
struct ClockSample {
  std::optional<unsigned> sm_mhz;         ///< current SM clock, MHz (NVML_CLOCK_SM)
  std::optional<unsigned> mem_mhz;        ///< current memory clock, MHz (NVML_CLOCK_MEM)
  std::optional<unsigned> temperature_c;  ///< GPU die temperature, degrees Celsius
  /// NVML's clocks event reasons (formerly "throttle reasons"), a bit mask (see
  /// throttle_reasons()).
  std::optional<unsigned long long> event_reasons;
};

/// The thermal and power reasons set in an NVML clocks event reasons mask, in bit order:
/// "sw_power_cap" (0x4), "hw_slowdown" (0x8), "sw_thermal" (0x20), "hw_thermal" (0x40),
/// "hw_power_brake" (0x80). Other bits (GPU idle, application clocks, sync boost, display clocks,
/// newer ones) say nothing about heat or power and are left out. Empty: none of these is set.
std::vector<std::string> throttle_reasons(unsigned long long mask);

/// The properties a speed test records for the readings `before` and `after` its timing loop:
/// `sm_clock_mhz_before`/`_after` and `mem_clock_mhz_before`/`_after` (MHz),
/// `temperature_c_before`/`_after` (degrees Celsius), each a non-negative integer, and
/// `throttle_reasons`: the union of throttle_reasons() of both readings (an array of strings,
/// empty when neither had one). A figure that was not read is left out; an empty object when
/// nothing was read.
nlohmann::json clock_properties(const ClockSample& before, const ClockSample& after);

}  // namespace course
