// Probe (docs/measured): the order in which the lines of lesson 01's print_ids reach the host, for
// <<<2, 4>>> and <<<16, 64>>>, five launches each. Built against the solution:
//   nvcc -O3 -arch=sm_90 -I lessons/01_hello_threads tools/probes/printf_order.cu \
//     lessons/01_hello_threads/launch.cu solutions/01_hello_threads/hello_threads.cu -o printf_order
// Prints each launch's lines between "== launch B x T, run R" markers.
#include <cuda_runtime.h>

#include <cstdio>

#include "hello_threads.cuh"

int main() {
  const int shapes[][2] = {{2, 4}, {16, 64}};
  for (const auto& s : shapes)
    for (int run = 0; run < 5; ++run) {
      std::printf("== launch %d x %d, run %d\n", s[0], s[1], run);
      std::fflush(stdout);
      if (hello_threads::launch_print_ids(s[0], s[1]) != cudaSuccess) return 1;
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;  // flushes the device's printf buffer
      std::fflush(stdout);
    }
  return 0;
}
