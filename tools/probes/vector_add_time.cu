// Probe (docs/measured): lesson 02's vector_add (host arrays in, host array out) against the
// kernel alone on device arrays, n = 2^24 + 1 floats. Built against the solution:
//   nvcc -O3 -arch=sm_90 -I lessons/02_vector_add tools/probes/vector_add_time.cu \
//     lessons/02_vector_add/launch.cu solutions/02_vector_add/vector_add.cu -o vector_add_time
// Prints the median of 7 runs of each, in ms (the first call of each is a warm-up, not counted).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "vector_add.cuh"

int main() {
  const int n = (1 << 24) + 1;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n);
  std::vector<double> whole, kernel;
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int i = 0; i < 8; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (vector_add::vector_add(a.data(), b.data(), c.data(), n) != cudaSuccess) return 1;
    const auto t1 = std::chrono::steady_clock::now();
    cudaEventRecord(e0);
    vector_add::launch_add(da, db, dc, n);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (i == 0) continue;
    whole.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    kernel.push_back(ms);
  }
  std::sort(whole.begin(), whole.end());
  std::sort(kernel.begin(), kernel.end());
  std::printf("vector_add (host to host) median %.3f ms; add kernel alone median %.4f ms; c[0] = %g\n",
              whole[whole.size() / 2], kernel[kernel.size() / 2], c[0]);
  return 0;
}
