#include "harness/host_code.hpp"

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>

#include "harness/cuda_check.hpp"
#include "harness/quiet_gpu.hpp"

namespace harness {

std::size_t device_bytes_in_use() {
  std::size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return total_bytes - free_bytes;
}

double leaked_bytes_per_call(const std::function<void()>& call, int calls) {
  wait_for_quiet_gpu();  // the device's free memory: no other process of the grade may move it
  call();                // first use: not counted
  double least = -1;
  for (int round = 0; round < 2; ++round) {
    const double before = static_cast<double>(device_bytes_in_use());
    for (int k = 0; k < calls; ++k) call();
    const double grew = static_cast<double>(device_bytes_in_use()) - before;
    least = round == 0 ? grew : std::min(least, grew);
  }
  return std::max(0.0, least) / std::max(1, calls);
}

}  // namespace harness
