// Lesson 15's table for the lab's bench: mix_channels (the course's register-capped first version
// and yours) against a float4 copy of the same bytes, and segment_scan at fixed block sizes and at
// yours against an int4 copy, each row with its theoretical occupancy. Kernels are checked once
// before they are timed. Kernel names let `ncu --kernel-name regex:mix_channels|segment_scan`
// (grader profile 15) pick the rows.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "host_reference.hpp"
#include "occupancy.cuh"
#include "register_rung.cuh"

namespace occupancy_profiling {
// The README's first version, as a rung of its own name.
MATRIX_IN_REGISTERS_KERNEL(mix_in_registers, )
}  // namespace occupancy_profiling

namespace {

using namespace occupancy_profiling;

// Theoretical occupancy of `kernel` at `block` threads and `smem` bytes, in percent.
double occupancy_pct(const void* kernel, int block, std::size_t smem) {
  int blocks = 0, device = 0, max_threads = 0;
  harness::check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, smem),
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  harness::check(cudaGetDevice(&device), "cudaGetDevice");
  harness::check(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device),
      "cudaDeviceGetAttribute");
  return 100.0 * blocks * block / max_threads;
}

std::string registers_note(const void* kernel, const char* what) {
  cudaFuncAttributes a{};
  harness::check(cudaFuncGetAttributes(&a, kernel), "cudaFuncGetAttributes");
  return fmt::format("{}: {} registers, {} B local, {:.0f}% theoretical occupancy", what, a.numRegs,
                     a.localSizeBytes, occupancy_pct(kernel, MIX_BLOCK_THREADS, 0));
}

std::vector<float> drawn_floats(std::size_t n, std::uint64_t seed, bool matrix) {
  return matrix ? harness::draw_values<float>(n, seed, MatrixValues{})
                : harness::draw_values<float>(n, seed, PixelValues{});
}

bench::Table occupancy_table(const bench::Context& ctx) {
  const long long pixels = harness::timing_elements(2, CHANNELS * sizeof(float));
  const std::size_t floats = static_cast<std::size_t>(pixels) * CHANNELS;
  const long long n = harness::timing_elements(2, sizeof(int));
  bench::Table t{"occupancy",
                 fmt::format("mix_channels on {} pixels of 8 floats; segment_scan on {} ints "
                             "(lesson 15)",
                             course::group_thousands(static_cast<double>(pixels)),
                             course::group_thousands(static_cast<double>(n))),
                 "effective GB/s = bytes read + written / time: 64 B per pixel, 8 B per int",
                 "mix rows: a float4 copy of the same bytes; segment rows: an int4 copy"};
  {
    harness::DeviceBuffer<float> in(floats), out(floats), m(CHANNELS * CHANNELS);
    const std::vector<float> host_in = drawn_floats(floats, 151, false);
    const std::vector<float> host_m = drawn_floats(CHANNELS * CHANNELS, 152, true);
    in.upload(host_in);
    m.upload(host_m);
    const std::vector<float> expected = host_mix(host_in, host_m);
    const auto at = [](std::size_t j) {
      return fmt::format("out[{}] (pixel {}, channel {})", j, j / CHANNELS, j % CHANNELS);
    };
    const bench::Launch copy = [&](cudaStream_t s) {
      return launch_mix_copy_rung(in.data(), out.data(), m.data(), pixels, s);
    };
    const double bytes = 64.0 * static_cast<double>(pixels);
    t.rows.push_back(bench::measure(ctx, "mix_copy_rung (ceiling)", copy, copy, bytes,
                                    "float4 copy, same grid"));
    const bench::Launch rung = [&](cudaStream_t s) {
      unsigned blocks = 0;
      int sms = ctx.device.sm_count;
      blocks = static_cast<unsigned>(std::min<long long>(
          4LL * 8 * sms, (pixels * CHANNELS + MIX_BLOCK_THREADS - 1) / MIX_BLOCK_THREADS));
      mix_in_registers<<<blocks, MIX_BLOCK_THREADS, 0, s>>>(in.data(), out.data(), m.data(),
                                                            pixels);
      return cudaGetLastError();
    };
    t.rows.push_back(bench::measure_checked(
        ctx, "mix_in_registers (README's first)", copy, rung, bytes,
        registers_note(reinterpret_cast<const void*>(mix_in_registers), "a pixel per thread"), out,
        expected, at));
    const bench::Launch yours = [&](cudaStream_t s) {
      return launch_mix_channels(in.data(), out.data(), m.data(), pixels, s);
    };
    t.rows.push_back(bench::measure_checked(
        ctx, "mix_channels (yours)", copy, yours, bytes,
        registers_note(reinterpret_cast<const void*>(mix_channels), "yours"), out, expected, at));
  }
  {
    harness::DeviceBuffer<int> x(n), out(n);
    const std::vector<int> host =
        harness::draw_values<int>(static_cast<std::size_t>(n), 153, SegmentValues{});
    x.upload(host);
    const std::vector<int> expected = host_segment_scan(host);
    const auto at = [](std::size_t i) { return fmt::format("out[{}]", i); };
    const bench::Launch copy = [&](cudaStream_t s) {
      return launch_segment_copy_rung(x.data(), out.data(), n, s);
    };
    t.rows.push_back(
        bench::measure(ctx, "segment_copy_rung (ceiling)", copy, copy, 8.0 * n, "int4 copy"));
    harness::check(prepare_segment_scan(), "prepare_segment_scan");
    for (int block : {32, 64, 128, 256, 512, 1024}) {
      const bench::Launch fixed = [&, block](cudaStream_t s) {
        const long long per_block = static_cast<long long>(block) * SEGMENT;
        segment_scan<<<static_cast<unsigned>((n + per_block - 1) / per_block), block,
                       segment_smem_bytes(block), s>>>(x.data(), out.data(), n);
        return cudaGetLastError();
      };
      t.rows.push_back(bench::measure_checked(
          ctx, fmt::format("segment_scan, block {}", block), copy, fixed, 8.0 * n,
          fmt::format("{:.0f}% theoretical occupancy",
                      occupancy_pct(reinterpret_cast<const void*>(segment_scan), block,
                                    segment_smem_bytes(block))),
          out, expected, at));
    }
    const bench::Launch yours = [&](cudaStream_t s) {
      return launch_segment_scan(x.data(), out.data(), n, s);
    };
    bench::Row row = bench::measure_checked(ctx, "segment_scan, your block size", copy, yours,
                                            8.0 * n, "", out, expected, at);
    if (row.error.empty())
      row.note = fmt::format(
          "block {}: {:.0f}% theoretical occupancy", last_segment_block(),
          occupancy_pct(reinterpret_cast<const void*>(segment_scan), last_segment_block(),
                        segment_smem_bytes(last_segment_block())));
    t.rows.push_back(row);
  }
  return t;
}

}  // namespace

BENCH_TABLE("15_occupancy_profiling", "occupancy", occupancy_table);
