// Lesson 12's tables for the lab's bench: the histogram ladder on uniform bytes (global atomics,
// warp aggregation, byte loads, per-warp counters with equal bytes merged, yours) against
// cub::DeviceHistogram::HistogramEven, and the contention sweep (0-100% of the bytes one value:
// the per-warp merged rung and yours), each row against CUB on the same bytes. Every kernel is
// checked once against CUB's histogram of the same bytes before it is timed. Kernel names let
// `ncu --kernel-name regex:histogram_` pick a row.
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "histogram.cuh"
#include "host_reference.hpp"
#include "rungs.cuh"

namespace {

using histogram::BINS;
using histogram::BLOCK_THREADS;

__global__ void histogram_rung_warp_aggregated(const unsigned char* __restrict__ data, long long n,
                                               unsigned* __restrict__ bins) {
  histogram::rungs::warp_aggregated(data, n, bins);
}

__global__ void histogram_rung_warp_counters_merged(const unsigned char* __restrict__ data,
                                                    long long n, unsigned* __restrict__ bins) {
  histogram::rungs::warp_counters_merged(data, n, bins);
}

__global__ void histogram_rung_byte_loads(const unsigned char* __restrict__ data, long long n,
                                          unsigned* __restrict__ bins) {
  histogram::rungs::byte_loads(data, n, bins);
}

using Kernel = void (*)(const unsigned char*, long long, unsigned*);

// A course rung on the course's grid, the bins zeroed first (as the launchers do).
bench::Launch rung(Kernel k, const unsigned char* data, unsigned* bins, long long n) {
  unsigned blocks = 0;
  harness::check(histogram::histogram_grid(n, &blocks), "histogram_grid");
  return [=](cudaStream_t s) {
    if (cudaError_t err = cudaMemsetAsync(bins, 0, sizeof(unsigned) * BINS, s); err != cudaSuccess)
      return err;
    k<<<blocks, BLOCK_THREADS, 0, s>>>(data, n, bins);
    return cudaGetLastError();
  };
}

bench::Launch course(histogram::Launcher launcher, const unsigned char* data, unsigned* bins,
                     long long n) {
  return [=](cudaStream_t s) { return launcher(data, bins, n, s); };
}

std::string at(std::size_t b) {
  return fmt::format("bins[{}]", b);
}

// The bytes of a table, drawn on the device, and their histogram by CUB (the reference every row
// is checked against; the hidden tests vouch for it against the host on every correctness case).
struct Bytes {
  long long n;
  harness::DeviceBuffer<std::uint8_t> data;
  harness::DeviceBuffer<unsigned> bins{static_cast<std::size_t>(BINS)};
  std::vector<unsigned> expected;
  Bytes(long long count, std::uint64_t seed, int share)
      : n(count), data(static_cast<std::size_t>(count)) {
    harness::check(
        harness::fill_on_device(data.data(), data.size(), seed, histogram::SkewedBytes{share}, 0),
        "draw the bytes");
    harness::check(histogram::launch_cub_histogram(data.data(), bins.data(), n, 0), "CUB");
    harness::wait(0, "CUB");
    expected = bins.download();
  }
};

const std::string kFormula = "effective GB/s = (n bytes read + 1 KiB of bins written) / time";

bench::Table ladder_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(1, 1);
  Bytes b(n, 121, 0);
  const double bytes = static_cast<double>(n) + sizeof(unsigned) * BINS;
  bench::Table t{"histogram",
                 fmt::format("256 bins over {} uniform bytes (lesson 12, steps global_atomics, "
                             "privatized, beyond_cub)",
                             course::group_thousands(static_cast<double>(n))),
                 kFormula, "cub::DeviceHistogram::HistogramEven of the same bytes"};
  const bench::Launch cub =
      course(histogram::launch_cub_histogram, b.data.data(), b.bins.data(), n);
  t.rows.push_back(bench::measure_checked(ctx, "cub::DeviceHistogram::HistogramEven (ceiling)", cub,
                                          cub, bytes, "privatized, tuned", b.bins, b.expected, at));
  const auto row = [&](const std::string& name, const bench::Launch& k, const std::string& note) {
    t.rows.push_back(
        bench::measure_checked(ctx, name, cub, k, bytes, note, b.bins, b.expected, at));
  };
  row("histogram_global (yours)",
      course(histogram::launch_histogram_global, b.data.data(), b.bins.data(), n),
      "one global atomic per byte");
  row("histogram_rung_warp_aggregated",
      rung(histogram_rung_warp_aggregated, b.data.data(), b.bins.data(), n),
      "__match_any_sync, one global atomic per distinct byte of a warp");
  row("histogram_rung_byte_loads", rung(histogram_rung_byte_loads, b.data.data(), b.bins.data(), n),
      "per-warp shared counters, 1-byte loads");
  row("histogram_rung_warp_counters_merged",
      rung(histogram_rung_warp_counters_merged, b.data.data(), b.bins.data(), n),
      "per-warp counters, 4-byte loads, equal bytes of a word merged");
  row("histogram_shared (yours)",
      course(histogram::launch_histogram_shared, b.data.data(), b.bins.data(), n),
      "one shared copy per block, 4-byte loads, an atomic per byte");
  row("histogram_vector (yours)",
      course(histogram::launch_histogram_vector, b.data.data(), b.bins.data(), n),
      "as above with uint4 loads");
  return t;
}

bench::Table contention_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(1, 1);
  const double bytes = static_cast<double>(n) + sizeof(unsigned) * BINS;
  bench::Table t{"contention",
                 fmt::format("256 bins over {} bytes, a share of them one value (lesson 12, steps "
                             "privatized and skew_10, skew_40, skew_90)",
                             course::group_thousands(static_cast<double>(n))),
                 kFormula, "cub::DeviceHistogram::HistogramEven of the same bytes (each share)"};
  for (int share : {0, 10, 40, 90, 100}) {
    Bytes b(n, 130 + static_cast<std::uint64_t>(share), share);
    const bench::Launch cub =
        course(histogram::launch_cub_histogram, b.data.data(), b.bins.data(), n);
    const std::string s = fmt::format("{}% equal", share);
    t.rows.push_back(bench::measure(ctx, "cub::DeviceHistogram::HistogramEven, " + s, cub, cub,
                                    bytes, "the ceiling of this share"));
    t.rows.push_back(bench::measure_checked(
        ctx, "histogram_rung_warp_counters_merged, " + s, cub,
        rung(histogram_rung_warp_counters_merged, b.data.data(), b.bins.data(), n), bytes,
        "per-warp counters, equal bytes of a word merged", b.bins, b.expected, at));
    t.rows.push_back(bench::measure_checked(
        ctx, "histogram_shared (yours), " + s, cub,
        course(histogram::launch_histogram_shared, b.data.data(), b.bins.data(), n), bytes,
        "one copy per block, an atomic per byte", b.bins, b.expected, at));
    t.rows.push_back(bench::measure_checked(
        ctx, "histogram_vector (yours), " + s, cub,
        course(histogram::launch_histogram_vector, b.data.data(), b.bins.data(), n), bytes,
        "uint4 loads", b.bins, b.expected, at));
  }
  return t;
}

}  // namespace

BENCH_TABLE("12_histogram", "histogram", ladder_table);
BENCH_TABLE("12_histogram", "contention", contention_table);
