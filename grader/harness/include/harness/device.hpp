/// @file device.hpp
/// @brief The GPU the hidden tests run on, as the measurement method needs it.
#pragma once

#include <cstddef>
#include <string>

namespace harness {

/// Properties of one CUDA device, from cudaGetDeviceProperties and cudaDeviceGetAttribute.
struct DeviceInfo {
  int index = 0;     ///< CUDA device index (the current device)
  std::string name;  ///< e.g. "NVIDIA H200"
  /// Compute capability, major part (9 for sm_90).
  int cc_major = 0, cc_minor = 0;
  /** @var cc_minor
      Compute capability, minor part (0 for sm_90). */
  int sm_count = 0;             ///< streaming multiprocessors
  std::size_t l2_bytes = 0;     ///< L2 cache size, bytes
  std::size_t total_bytes = 0;  ///< device memory, bytes
  std::size_t free_bytes = 0;   ///< free device memory when queried, bytes
  int memory_clock_khz = 0;     ///< peak memory clock, kHz (cudaDevAttrMemoryClockRate)
  int bus_width_bits = 0;       ///< memory bus width, bits
  int driver_version = 0;       ///< e.g. 13000 for CUDA 13.0 (cudaDriverGetVersion)
  int runtime_version = 0;      ///< e.g. 12080 for CUDA 12.8 (cudaRuntimeGetVersion)

  /// Datasheet-style peak, for context only: 2 (double data rate) x memory clock x bus width,
  /// in GB/s (10^9 B/s). Never used as a gate's ceiling.
  double datasheet_peak_gbps() const;
  /// Compute capability as in sm_XX names: "90" for 9.0, "75" for 7.5.
  std::string sm() const { return std::to_string(cc_major) + std::to_string(cc_minor); }
};

/// Queries the current device. @throws harness::CudaError.
DeviceInfo query_device();

/// query_device() once per process (free_bytes as it was then). @throws harness::CudaError.
const DeviceInfo& current_device();

}  // namespace harness
