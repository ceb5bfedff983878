// Lesson 09's tables for the lab's bench: copies of one vector width each (4, 8, 16 bytes per
// thread) and your scale_view, then the transpose ladder from lesson 07's padded 32x32 kernel to
// your transpose_64; every row against cudaMemcpyAsync of the same bytes, the steps' ceiling.
// Your kernels (or the solutions) are checked once before they are timed.
#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "steps/09_vectorized_memory.hpp"
#include "vectorized_memory.cuh"

namespace {

constexpr int kThreads = 256;

// One vector of V per thread, the grid covering n / (sizeof(V) / 4) vectors (n a multiple of 4,
// 16-byte-aligned arrays): the width is the only difference between the rows.
template <typename V>
__global__ void copy_width(const float* __restrict__ in, float* __restrict__ out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n / static_cast<long long>(sizeof(V) / sizeof(float)))
    reinterpret_cast<V*>(out)[i] = reinterpret_cast<const V*>(in)[i];
}

template <typename V>
bench::Launch width_launch(const float* in, float* out, long long n) {
  const long long vectors = n / static_cast<long long>(sizeof(V) / sizeof(float));
  return [=](cudaStream_t s) {
    copy_width<V><<<static_cast<unsigned>((vectors + kThreads - 1) / kThreads), kThreads, 0, s>>>(
        in, out, n);
    return cudaGetLastError();
  };
}

// Lesson 07's padded transpose: 32x32 tiles, 32x8 threads, four 4-byte elements per thread.
__global__ void transpose_padded_32(const float* __restrict__ in, float* __restrict__ out, int rows,
                                    int cols) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < cols && y + j < rows)
      tile[threadIdx.y + j][threadIdx.x] = in[static_cast<std::size_t>(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < rows && y + j < cols)
      out[static_cast<std::size_t>(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

bench::Table widths_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(2, sizeof(float));
  harness::DeviceBuffer<float> in(n + 4), out(n + 4);
  const std::vector<float> host = harness::random_floats(n + 4, 91);
  in.upload(host);
  bench::Table t{"vector_widths",
                 fmt::format("copies of {} floats, one vector per thread, 256 threads per block; "
                             "scale_view on views 1 float past a 16-byte boundary (lesson 09)",
                             course::group_thousands(static_cast<double>(n))),
                 "effective GB/s = (4 B read + 4 B written) x n / time",
                 "cudaMemcpyAsync device to device of the same n floats"};
  const bench::Launch memcpy_all = [&](cudaStream_t s) {
    return vectorized_memory::launch_memcpy(in.data(), out.data(), n, s);
  };
  t.rows.push_back(bench::measure(ctx, "copy_width<float>", memcpy_all,
                                  width_launch<float>(in.data(), out.data(), n), 8.0 * n,
                                  "4 B per load: too few bytes in flight"));
  t.rows.push_back(bench::measure(ctx, "copy_width<float2>", memcpy_all,
                                  width_launch<float2>(in.data(), out.data(), n), 8.0 * n,
                                  "8 B per load"));
  t.rows.push_back(bench::measure(ctx, "copy_width<float4>", memcpy_all,
                                  width_launch<float4>(in.data(), out.data(), n), 8.0 * n,
                                  "16 B per load"));
  // Yours: a = 2 (exact), both views one float past a boundary, against memcpy of the same views.
  const float* in_view = in.data() + 1;
  float* out_view = out.data() + 1;
  const bench::Launch memcpy_view = [=](cudaStream_t s) {
    return vectorized_memory::launch_memcpy(in_view, out_view, n, s);
  };
  const bench::Launch yours = [=](cudaStream_t s) {
    return vectorized_memory::launch_scale_view(in_view, out_view, static_cast<int>(n), 2.0f, s);
  };
  std::vector<float> expected(n + 4);
  harness::parallel_for(expected.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      float poison;
      std::memset(&poison, harness::kOutputPoison, sizeof poison);
      expected[i] = i >= 1 && i < static_cast<std::size_t>(n) + 1 ? 2.0f * host[i] : poison;
    }
  });
  t.rows.push_back(bench::measure_checked(
      ctx, "scale_view (yours)", memcpy_view, yours, 8.0 * n,
      fmt::format("head 3, {} float4 per thread, tail 1", vectorized_memory::VECTORS_PER_THREAD),
      out, expected,
      [](std::size_t i) { return fmt::format("out[{}]", static_cast<long long>(i) - 1); }));
  return t;
}

bench::Table transpose_table(const bench::Context& ctx) {
  // The grader's timing shape of transpose_64 (grader/lessons/09_vectorized_memory/tests.cu):
  // twice the usual side, 16384 x 16384 on an H200.
  const int side = 2 * static_cast<int>(harness::timing_side(8, sizeof(float)));
  const long long n = static_cast<long long>(side) * side;
  harness::DeviceBuffer<float> in(n), out(n);
  const std::vector<float> host = harness::random_floats(n, 92);
  in.upload(host);
  bench::Table t{"transpose_64",
                 fmt::format("transpose of a {0} x {0} float matrix (lessons 07 and 09)", side),
                 "effective GB/s = (4 B read + 4 B written) x rows x cols / time",
                 "cudaMemcpyAsync device to device of the same bytes"};
  const bench::Launch memcpy_all = [&](cudaStream_t s) {
    return vectorized_memory::launch_memcpy(in.data(), out.data(), n, s);
  };
  const bench::Launch padded = [&](cudaStream_t s) {
    transpose_padded_32<<<dim3((side + 31) / 32, (side + 31) / 32), dim3(32, 8), 0, s>>>(
        in.data(), out.data(), side, side);
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure(ctx, "transpose_padded_32 (lesson 07)", memcpy_all, padded,
                                  8.0 * n, "4 B per access, 16 B per thread"));
  const std::vector<float> expected = harness::host_transpose(host, side, side);
  const bench::Launch yours = [&](cudaStream_t s) {
    return vectorized_memory::launch_transpose_64(in.data(), out.data(), side, side, s);
  };
  t.rows.push_back(bench::measure_checked(
      ctx, "transpose_64 (yours)", memcpy_all, yours, 8.0 * n,
      "float4 both sides, 64 B per thread, swizzled tile", out, expected,
      [side](std::size_t i) { return fmt::format("out[{}][{}]", i / side, i % side); }));
  return t;
}

}  // namespace

BENCH_TABLE(vectorized_memory::kLessonId, "vector_widths", widths_table);
BENCH_TABLE(vectorized_memory::kLessonId, "transpose_64", transpose_table);
