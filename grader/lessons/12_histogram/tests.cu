// Hidden tests of lesson 12_histogram: "<step>/Correct.<case>" and "<step>/Speed.timed" for the
// six steps, every one timed against cub::DeviceHistogram::HistogramEven on the same bytes.
//
// Data (host_reference.hpp, SkewedBytes): global_atomics, privatized and beyond_cub draw uniform
// bytes; skew_10, skew_40 and skew_90 draw bytes of which 10%, 40% or 90% are one hot byte, a new
// one for every draw (the rest uniform). Each step's correctness cases and its speed test use the
// step's own regime, so the skew_ steps are the same kernel (histogram_shared) held to the gate
// under three levels of contention: one speed test per step, one regime per speed test, so that
// a kernel fast on uniform bytes cannot make up for a slow one under contention (a mixed input
// would average them).
//
// Comparisons. The 256 counts are integers, compared exactly. References: correctness cases
// count on the host (host_histogram); the device form, which the speed test's checks use (its
// first launch and the three timed launches it checks afterwards), draws the bytes afresh from
// the input's seed into a buffer of the test's own, never one the kernel under test can reach,
// and counts them with CUB (the ceiling's launcher). Every correctness case vouches for the
// device form against the host one on all 256 bins (harness::Reference).
//
// Sizes: 1; around a word (4) and a vector (16); around a warp's and a block's bytes; primes;
// 4,097 (two blocks' worth of vectors on histogram_grid); 1,000,003; and 8,388,619 (prime),
// more than one wave of blocks covers in one pass even at 16 bytes per thread on a GPU of up to
// 2,048 resident blocks (the H200: 132 SMs x 8 blocks), so a kernel without a grid-stride loop
// fails it. The timing size, 2^28 bytes on GPUs with up to 64 MiB of L2 (>= 4x the L2,
// harness::timing_elements), is checked by the speed test itself on the device.
#include <cstdint>
#include <numeric>
#include <vector>

#include "course/report.hpp"
#include "harness/lesson.hpp"
#include "histogram.cuh"
#include "host_reference.hpp"
#include "steps/12_histogram.hpp"

namespace {

using histogram::BINS;
using histogram::SkewedBytes;
using histogram::Step;

const std::vector<long long> kSizes = {1,    2,    3,    4,     5,       15,     16,
                                       17,   31,   255,  256,   257,     1000,   4095,
                                       4096, 4097, 8191, 65537, 1000003, 8388619};

// The data rule of each step: the hot byte's share in percent (0: uniform).
int share_of(Step step) {
  switch (step) {
    case Step::skew_10:
      return 10;
    case Step::skew_40:
      return 40;
    case Step::skew_90:
      return 90;
    default:
      return 0;
  }
}

const char* kernel_of(Step step) {
  switch (step) {
    case Step::global_atomics:
      return "histogram_global";
    case Step::beyond_cub:
      return "histogram_vector";
    default:
      return "histogram_shared";
  }
}

histogram::Launcher launcher_of(Step step) {
  switch (step) {
    case Step::global_atomics:
      return histogram::launch_histogram_global;
    case Step::beyond_cub:
      return histogram::launch_histogram_vector;
    default:
      return histogram::launch_histogram_shared;
  }
}

// The device form of the Reference: bin b of a histogram the test computed on the device itself,
// into a buffer of its own that outlives the comparison.
struct Stored {
  const unsigned* counts;
  __device__ unsigned operator()(std::size_t b) const { return counts[b]; }
};

// "bins[200] (byte 200 = 0xC8)".
harness::Where bin_where() {
  return [](const std::string& name, std::size_t b) {
    return fmt::format("{}[{}] (byte {} = 0x{:02X})", name, b, b, b);
  };
}

std::vector<unsigned> prefix_histogram(const std::vector<std::uint8_t>& data, long long m) {
  std::vector<unsigned> counts(BINS, 0u);
  for (long long i = 0; i < m; ++i) ++counts[data[static_cast<std::size_t>(i)]];
  return counts;
}

// What wrong counts are: nothing counted; bytes >= 128 lost to negative indices; more counts
// than bytes (counters not cleared); fewer (a first pass only, a tail dropped, or lost updates).
harness::Advice bins_advice(const harness::Output<unsigned>& bins,
                            const harness::Input<std::uint8_t>& data, std::vector<unsigned> want,
                            long long n) {
  return [bins, data, want, n](const harness::Mismatches&) -> std::string {
    const std::vector<unsigned> got = bins.download();
    const unsigned long long total = std::accumulate(
        got.begin(), got.end(), 0ull, [](unsigned long long a, unsigned v) { return a + v; });
    const auto nn = static_cast<unsigned long long>(n);
    if (total == 0)
      return "Every bin is 0: the kernel counted nothing (the launcher sets bins to 0 before it "
             "starts; every byte must add 1 to its bin)";
    bool low_right = true, high_zero = true, high_expected = false;
    for (int b = 0; b < BINS; ++b) {
      if (b < 128) {
        low_right = low_right && got[b] == want[b];
      } else {
        high_zero = high_zero && got[b] == 0;
        high_expected = high_expected || want[b] != 0;
      }
    }
    if (low_right && high_zero && high_expected)
      return "Bins 0 .. 127 are right and bins 128 .. 255 are all 0: the bytes 128-255 were read "
             "as a signed char, which makes them -128 .. -1, so they were counted before the "
             "first bin. Index with the unsigned char (or an unsigned int) itself";
    const std::string sums = fmt::format("The bins add up to {}, ", course::group_thousands(total));
    if (total > nn)
      return sums + fmt::format(
                        "more than the {} bytes there are: counts that no byte of this input made. "
                        "Shared counters start with whatever an earlier block or launch left in "
                        "that memory: clear them, then __syncthreads(), before any thread counts",
                        course::group_thousands(nn));
    std::string out =
        sums + fmt::format("fewer than the {} bytes there are. ", course::group_thousands(nn));
    const std::vector<std::uint8_t>& bytes = data.host();  // drawn on the host only now
    unsigned blocks = 0;
    harness::check(histogram::histogram_grid(n, &blocks), "histogram_grid");
    // The grid's first pass, with or without the 0-3 (or 0-15) bytes after the last whole word
    // (or vector), which a kernel may count outside its loop.
    for (long long per_thread : {1LL, 4LL, 16LL}) {
      const long long m = static_cast<long long>(blocks) * histogram::BLOCK_THREADS * per_thread;
      for (long long tail : {0LL, n % 4, n % 16}) {
        if (m >= n - tail) continue;
        std::vector<unsigned> candidate = prefix_histogram(bytes, m);
        for (long long i = n - tail; i < n; ++i) ++candidate[bytes[static_cast<std::size_t>(i)]];
        if (got == candidate)
          return out + fmt::format(
                           "They are exactly the counts of the first {} bytes{}: the grid's first "
                           "pass ({} blocks x 256 threads x {} byte(s)). The grid has far fewer "
                           "threads than bytes: a grid-stride loop covers the rest",
                           course::group_thousands(static_cast<double>(m)),
                           tail > 0 ? fmt::format(" (and the last {})", tail) : std::string(),
                           blocks, per_thread);
      }
    }
    for (long long width : {4LL, 16LL}) {
      const long long whole = n / width * width;
      if (whole < n && got == prefix_histogram(bytes, whole))
        return out + fmt::format(
                         "They are exactly the counts of the first {} bytes: the {} byte(s) after "
                         "the last whole {}-byte load were never counted",
                         course::group_thousands(static_cast<double>(whole)), n - whole, width);
    }
    return out + fmt::format(
                     "{} counts were lost: updates of one counter at the same moment of which "
                     "only one took effect (a counter read and written without an atomic, or a "
                     "merge whose atomics are not device-wide, such as atomicAdd_block), a merge "
                     "that reads the shared counters before every warp has finished counting (a "
                     "missing __syncthreads()), or bytes that no thread visited",
                     course::group_thousands(static_cast<double>(nn - total)));
  };
}

std::string shape(Step step, long long n) {
  const int share = share_of(step);
  const std::string bytes =
      fmt::format("n = {} bytes", course::group_thousands(static_cast<double>(n)));
  if (share == 0) return bytes + ", uniform";
  return fmt::format("{}, {}% of them one byte value", bytes, share);
}

void histogram_case(harness::Case& c, Step step, long long n) {
  c.describe(kernel_of(step), shape(step, n));
  const std::size_t count = static_cast<std::size_t>(n);
  const SkewedBytes draw{share_of(step)};
  const auto data = c.input<std::uint8_t>("data", count, draw);
  const auto bins = c.output<unsigned>("bins", BINS);
  c.launch(launcher_of(step), data, bins, n);
  c.ceiling(histogram::launch_cub_histogram, data, bins, n);
  c.bytes(static_cast<double>(n) + sizeof(unsigned) * BINS);  // read the bytes, write the bins
  // The device reference: the bytes drawn afresh into a buffer of the test's own, counted by CUB.
  harness::DeviceBuffer<std::uint8_t> drawn(count);
  harness::DeviceBuffer<unsigned> counted(BINS);
  harness::check(harness::fill_on_device(drawn.data(), count, data.seed(), draw, 0),
                 "draw the bytes again for the device reference");
  harness::check(histogram::launch_cub_histogram(drawn.data(), counted.data(), n, 0),
                 "count the device reference");
  const std::vector<unsigned> want = counted.download();  // 1 KiB; vouched for below
  c.expect_exact(bins,
                 harness::reference([&] { return histogram::host_histogram(data.host()); },
                                    Stored{counted.data()}),
                 bin_where(), bins_advice(bins, data, want, n));
}

// The bytes alone at least 4x the L2 (2^28 on the H200).
long long timing_bytes() {
  return harness::timing_elements(1, sizeof(std::uint8_t));
}

std::string name_ll(const long long& n) {
  return fmt::format("n_{}", n);
}

template <Step S>
void body(harness::Case& c, const long long& n) {
  histogram_case(c, S, n);
}

template <Step S>
void register_step() {
  harness::correctness(S, kSizes, name_ll, body<S>);
  harness::speed(S, timing_bytes, body<S>);
}

}  // namespace

COURSE_TESTS {
  register_step<Step::global_atomics>();
  register_step<Step::privatized>();
  register_step<Step::skew_10>();
  register_step<Step::skew_40>();
  register_step<Step::skew_90>();
  register_step<Step::beyond_cub>();
}
