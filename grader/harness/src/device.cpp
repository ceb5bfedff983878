#include "harness/device.hpp"

#include <cuda_runtime.h>

#include "harness/cuda_check.hpp"

namespace harness {

double DeviceInfo::datasheet_peak_gbps() const {
  return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

DeviceInfo query_device() {
  DeviceInfo d;
  check(cudaGetDevice(&d.index), "cudaGetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, d.index), "cudaGetDeviceProperties");
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.total_bytes = p.totalGlobalMem;
  // The clock and bus width are attributes (cudaDeviceProp's memoryClockRate left in CUDA 13).
  check(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, d.index),
        "cudaDeviceGetAttribute(MemoryClockRate)");
  check(cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, d.index),
        "cudaDeviceGetAttribute(GlobalMemoryBusWidth)");
  std::size_t total = 0;
  check(cudaMemGetInfo(&d.free_bytes, &total), "cudaMemGetInfo");
  check(cudaDriverGetVersion(&d.driver_version), "cudaDriverGetVersion");
  check(cudaRuntimeGetVersion(&d.runtime_version), "cudaRuntimeGetVersion");
  return d;
}

const DeviceInfo& current_device() {
  static const DeviceInfo d = query_device();
  return d;
}

}  // namespace harness
