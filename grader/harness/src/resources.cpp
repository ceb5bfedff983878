#include "harness/resources.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "harness/cuda_check.hpp"
#include "harness/lesson.hpp"
#include "harness/record.hpp"

namespace harness {

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

std::optional<std::size_t> available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key, unit;
    std::size_t kib = 0;
    if (fields >> key >> kib >> unit && key == "MemAvailable:" && unit == "kB") return kib * 1024;
  }
  return std::nullopt;
}

std::string gib(std::size_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1ull << 30));
}

void require_memory(std::size_t device_bytes, std::size_t host_bytes, const std::string& what) {
  if (skip_large()) skip_in_quick_mode("large shape skipped");
  if (const std::size_t free = free_device_bytes(); free < device_bytes)
    throw SkipCase(fmt::format("not enough GPU memory: {} needs {} of device memory, {} is free",
                               what, gib(device_bytes), gib(free)));
  if (const auto host = available_host_bytes(); host && *host < host_bytes)
    throw SkipCase(fmt::format(
        "not enough host memory: {} needs {} of host memory for its inputs, reference and "
        "checks, {} is available",
        what, gib(host_bytes), gib(*host)));
}

}  // namespace harness
