/// @file clocks.hpp
/// @brief The GPU's current clocks and temperature, read through NVML, so a speed test can record
/// at what clocks it timed (run_speed_check reads them right before and right after its timing
/// loop). The grader never locks or changes clocks: these are the clocks as found.
///
/// NVML (libnvidia-ml.so.1, installed with the NVIDIA driver) is loaded at run time with dlopen,
/// never linked, so the hidden-test binaries still start on machines without the driver (CI).
/// Whatever is missing (the library, a function, a query the GPU does not support) is left out of
/// the reading; nothing here throws or fails a test.
#pragma once

#include "course/clocks.hpp"

namespace harness {

/// Reads the current CUDA device's SM clock and memory clock (MHz), die temperature (degrees
/// Celsius) and clocks event reasons (bit mask, see course::throttle_reasons()) through NVML.
/// The NVML device is found by the CUDA device's PCI bus id, so CUDA_VISIBLE_DEVICES and
/// --device do not confuse the two numberings. The first call loads and initialises NVML (once
/// per process; it stays loaded until exit).
/// @return the figures that could be read; all absent when NVML is not available, when the CUDA
///   context is lost, or when NVML does not know the device.
course::ClockSample sample_clocks();

/// Records course::clock_properties(before, after) for the running test (see harness::record);
/// records nothing for figures that were not read.
void record_clocks(const course::ClockSample& before, const course::ClockSample& after);

}  // namespace harness
