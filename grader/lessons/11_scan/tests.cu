// Hidden tests of lesson 11_scan: "block_scan/Correct.<case>" and "block_scan/Speed.timed"
// (against block_copy_rung, reported, not gated), "device_scan/..." and "look_back/..." (against
// cub::DeviceScan::InclusiveSum), "compact/..." (against cub::DeviceSelect::If).
//
// Comparisons. Every input is ScanValues (host_reference.hpp): nonzero ints in [-100, 100]. Int
// addition modulo 2^32 is associative and commutative, so every order of additions, the host's
// left-to-right loop included (wrapping_add), gives the same bits: every output is compared bit
// for bit. The data also never comes near the wrap-around, so the results are the true sums: for
// n <= 2^31 / 100 every prefix is at most 100 n < 2^31 in magnitude; for larger n a prefix of m
// independent symmetric terms in [-100, 100] reaches 2^31 with probability at most
// 2 exp(-2 (2^31)^2 / (200^2 m)) (Hoeffding), below 10^-370000 for m <= 2^28. Nonzero elements
// make inclusive[i] and exclusive[i] differ at every i and make every dropped or doubled element
// change all later prefixes.
//
// References. Correctness cases compute the expected arrays on the host (host_reference.hpp).
// The speed test's checks (its first launch and the three timed launches it checks afterwards)
// compare on the device: the test draws x afresh from its seed into a buffer of its own, never
// one the kernel under test can reach, and CUB computes the expected array from it (the ceilings'
// launchers, launch.cu: cub::DeviceScan::InclusiveSum in place, cub::DeviceSelect::If with keep());
// a tile's scan is then the difference of two prefixes of the whole array's (exact: int addition
// modulo 2^32 is a group). Every correctness case also checks that device reference against the
// host one on every element (harness::Reference), so the device form is trusted as far as the
// host one vouches for it. The hints in failure messages draw the host copy only on a failure.
//
// Sizes: 1; one short of / at / one past a warp, a block's 256-element tile and a 2048-element
// tile; primes; sizes with one tile per chunk (the chunk grid is one full wave of blocks:
// chunk_grid()) and with several (4,194,305 on a GPU of up to 1,024 resident blocks and more,
// and 8,390,673 = 4,097 tiles and 17 elements, whose last chunk holds more than one tile, the
// last of them partial, on a GPU of 264 to 1,056 resident blocks, the H200's included). The
// timing size, 2^26 elements per array on GPUs with up to 128 MiB of L2 (>= 4x the L2), is
// checked by the speed test itself on the device; no correctness case repeats it, since a host
// scan of 2^26 ints per step would add seconds to every grade.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "course/report.hpp"
#include "harness/lesson.hpp"
#include "host_reference.hpp"
#include "scan.cuh"
#include "steps/11_scan.hpp"

namespace {

using scan::ScanValues;
using scan::Step;

constexpr int kBlock = scan::BLOCK_THREADS;
constexpr int kWarp = scan::WARP_SIZE;
constexpr long long kTile = scan::TILE_ITEMS;

long long value_of(const std::string& shown) {
  return std::strtoll(shown.c_str(), nullptr, 10);
}

// The inclusive scan of the whole of x, computed on the device into `scanned` (x.size()
// elements): x drawn afresh from its seed, then scanned in place by cub::DeviceScan::InclusiveSum
// (the ceiling's launcher). Never reads x's buffer, which the kernel under test could have
// changed.
void scan_of_draws(const harness::Input<int>& x, harness::DeviceBuffer<int>& scanned) {
  const long long n = static_cast<long long>(x.size());
  harness::check(harness::fill_on_device(scanned.data(), x.size(), x.seed(), ScanValues{}, 0),
                 "draw x again for the device reference");
  harness::check(scan::launch_cub_inclusive_sum(scanned.data(), scanned.data(), n, 0),
                 "scan the device reference");
}

// ============================== block_scan ==============================

const std::vector<int> kBlockSizes = {1,   2,   31,   32,   33,   63,    255,    256,
                                      257, 511, 1000, 1025, 4099, 65537, 1000003};

// x, inclusive and exclusive: three arrays at least 4x the L2 together.
int block_timing() {
  return static_cast<int>(harness::timing_elements(3, sizeof(int)));
}

// "inclusive[300] (element 44 of tile 1, lane 12 of warp 1)".
harness::Where tile_where() {
  return [](const std::string& name, std::size_t i) {
    const std::size_t t = i % kBlock;
    return fmt::format("{}[{}] (element {} of tile {}, lane {} of warp {})", name, i, t, i / kBlock,
                       t % kWarp, t / kWarp);
  };
}

// What a wrong element of a tile's scan is: the other kind of scan, or a warp's scan without the
// warps before it.
harness::Advice block_advice(const harness::Input<int>& xs, bool is_inclusive) {
  return [xs, is_inclusive](const harness::Mismatches& m) -> std::string {
    if (m.first_unwritten)
      return "Every thread below n writes its element of both outputs; threads past n write "
             "nothing but stay for the shuffles and the barrier";
    const std::vector<int>& x = xs.host();  // drawn on the host only when a message needs it
    const std::vector<int> inclusive = scan::tile_inclusive_scan(x, kBlock);
    const std::size_t i = m.first;
    const long long got = value_of(m.got), xi = x[i];
    const long long inc = inclusive[i], exc = inclusive[i] - xi;
    const std::size_t lane = i % kBlock % kWarp, warp_first = i - lane;
    if (!is_inclusive && got == inc)
      return fmt::format(
          "exclusive[{0}] includes x[{0}] = {1}: an exclusive scan adds the elements before i "
          "only.{2}",
          i, xi,
          lane == 0 ? fmt::format(" Element {} is lane 0 of its warp: __shfl_up_sync(mask, v, 1) "
                                  "gives lane 0 its own value back, not the lane before it",
                                  i)
                    : "");
    if (is_inclusive && got == exc)
      return fmt::format("inclusive[{0}] leaves out x[{0}] = {1}: that is the exclusive scan", i,
                         xi);
    // The warp's own scan without the totals of the warps before it in the tile.
    const long long warp_part = inc - (warp_first % kBlock == 0 ? 0 : inclusive[warp_first - 1]);
    if (warp_first % kBlock != 0 && got == (is_inclusive ? warp_part : warp_part - xi))
      return fmt::format(
          "this is the scan of warp {} alone: add the totals of the warps before it in the tile "
          "(lane 31 of each warp stores its total in shared memory, __syncthreads(), then each "
          "thread adds those of the lower warps)",
          i % kBlock / kWarp);
    return "";
  };
}

// A tile's scans from the whole array's inclusive scan `s` (scan_of_draws): inclusive[i] = s[i] -
// s[first - 1] and exclusive[i] = s[i - 1] - s[first - 1], for the tile's first element `first`
// (the terms at index first - 1 are 0 in tile 0), in unsigned arithmetic: modulo 2^32, as the
// host adds.
struct TileScanOfDraws {
  const int* s;
  bool inclusive;
  __device__ int operator()(std::size_t i) const {
    const std::size_t first = i - i % kBlock;
    const unsigned before = first == 0 ? 0u : static_cast<unsigned>(s[first - 1]);
    const unsigned upto = inclusive    ? static_cast<unsigned>(s[i])
                          : i == first ? before
                                       : static_cast<unsigned>(s[i - 1]);
    return static_cast<int>(upto - before);
  }
};

void block_scan(harness::Case& c, const int& n) {
  c.describe("block_scan", fmt::format("n = {} ({} tiles of 256)", course::group_thousands(n),
                                       (n + kBlock - 1) / kBlock));
  const std::size_t count = static_cast<std::size_t>(n);
  const auto x = c.input<int>("x", count, ScanValues{});
  const auto inclusive = c.output<int>("inclusive", count);
  const auto exclusive = c.output<int>("exclusive", count);
  c.launch(scan::launch_block_scan, x, inclusive, exclusive, n);
  c.ceiling(scan::launch_block_copy_rung, x, inclusive, exclusive, n);
  c.bytes(12.0 * n);  // read x, write both scans
  harness::DeviceBuffer<int> scanned(count);
  scan_of_draws(x, scanned);
  const auto host_inclusive = [&] { return scan::tile_inclusive_scan(x.host(), kBlock); };
  const auto host_exclusive = [&] {
    std::vector<int> exc = host_inclusive();
    for (std::size_t i = 0; i < count; ++i) exc[i] -= x.host()[i];
    return exc;
  };
  c.expect_exact(inclusive,
                 harness::reference(host_inclusive, TileScanOfDraws{scanned.data(), true}),
                 tile_where(), block_advice(x, true));
  c.expect_exact(exclusive,
                 harness::reference(host_exclusive, TileScanOfDraws{scanned.data(), false}),
                 tile_where(), block_advice(x, false));
}

// ============================== device_scan and look_back ==============================

const std::vector<long long> kDeviceSizes = {
    1, 2, 31, 33, 255, 256, 257, 2047, 2048, 2049, 4099, 65536, 65537, 1000003, 4194305, 8390673};

// x and out at least 4x the L2 together.
long long device_timing() {
  return harness::timing_elements(2, sizeof(int));
}

std::string tile_text(long long n) {
  return fmt::format("n = {} ({} tiles of 2048)", course::group_thousands(static_cast<double>(n)),
                     (n + kTile - 1) / kTile);
}

// What a wrong whole-array scan is: the exclusive scan; a tile right inside but off by one
// amount (its prefix: the chunk's prefix never added, the carry of a chunk's earlier tiles, or
// what the look-back found); or a tile wrong inside.
harness::Advice device_advice(Step step, const harness::Output<int>& out,
                              const harness::Input<int>& xs) {
  return [step, out, xs](const harness::Mismatches& m) -> std::string {
    if (m.first_unwritten)
      return "Every element below n must be written: check the last, partial tile (elements "
             "past n are 0 when loaded and never stored)";
    const std::vector<int>& x = xs.host();  // drawn on the host only when a message needs it
    const std::vector<int> expected = scan::inclusive_scan(x);
    const std::size_t i = m.first;
    const long long n = static_cast<long long>(x.size());
    const std::vector<int> got = out.download();
    if (static_cast<long long>(got[i]) == static_cast<long long>(expected[i]) - x[i])
      return fmt::format(
          "out[{0}] leaves out x[{0}]: that is the exclusive scan, and this step "
          "asks for the inclusive one",
          i);
    const long long tile = static_cast<long long>(i) / kTile, begin = tile * kTile;
    const long long end = std::min(n, begin + kTile);
    const long long off = static_cast<long long>(got[i]) - expected[i];
    bool constant = static_cast<long long>(i) == begin;
    for (long long j = begin; constant && j < end; ++j)
      constant = static_cast<long long>(got[j]) - expected[j] == off;
    if (!constant)
      return fmt::format(
          "The scan inside tile {} (elements {} .. {}) is wrong from element {} of the tile on: "
          "check the thread's own scan of its 8 elements and the block scan of the threads' "
          "totals",
          tile, begin, end - 1, static_cast<long long>(i) - begin);
    const std::string same = fmt::format(
        "Every element of tile {} (elements {} .. {}) is off by the same amount, {}: the tile's "
        "own scan is right and the prefix it starts from is wrong",
        tile, begin, end - 1, off);
    if (step == Step::look_back)
      return same + fmt::format(
                        ". That prefix is what tile {} received from the tiles before it: an "
                        "aggregate or prefix read before it was written (a flag read without an "
                        "acquire load, or published before its value with no release store), or "
                        "a look-back that added a tile twice or stopped too early",
                        tile);
    scan::ChunkGrid g;
    harness::check(scan::chunk_grid(n, &g), "chunk_grid");
    const long long chunk = static_cast<long long>(i) / g.chunk;
    if (static_cast<long long>(i) % g.chunk == 0 && chunk > 0 && off == -expected[i - 1])
      return same + fmt::format(
                        ". Tile {} is the first of chunk {}, and the prefix of the chunks before "
                        "it ({}) was never added: scan_chunks starts each chunk from "
                        "chunk_prefix[blockIdx.x], the exclusive scan of the chunk sums",
                        tile, chunk, expected[i - 1]);
    if (static_cast<long long>(i) % g.chunk != 0)
      return same + fmt::format(
                        ". Tile {} is not the first of its chunk ({}): the carry from the chunk's "
                        "earlier tiles (their totals) is wrong",
                        tile, chunk);
    return same +
           fmt::format(". Tile {} is the first of chunk {}: check chunk_prefix", tile, chunk);
  };
}

void device_scan_case(harness::Case& c, Step step, long long n) {
  c.describe(step == Step::look_back ? "look_back_scan" : "device_scan", tile_text(n));
  const std::size_t count = static_cast<std::size_t>(n);
  const auto x = c.input<int>("x", count, ScanValues{});
  const auto out = c.output<int>("out", count);
  if (step == Step::look_back)
    c.launch(scan::launch_look_back_scan, x, out, n);
  else
    c.launch(scan::launch_device_scan, x, out, n);
  c.ceiling(scan::launch_cub_inclusive_sum, x, out, n);
  c.bytes(8.0 * static_cast<double>(n));  // read x once, write out once: the task's bytes
  harness::DeviceBuffer<int> scanned(count);
  scan_of_draws(x, scanned);
  c.expect_exact(out,
                 harness::reference([&] { return scan::inclusive_scan(x.host()); },
                                    harness::ArrayElement<int>{scanned.data()}),
                 harness::flat(), device_advice(step, out, x));
}

void device_scan(harness::Case& c, const long long& n) {
  device_scan_case(c, Step::device_scan, n);
}

void look_back(harness::Case& c, const long long& n) {
  device_scan_case(c, Step::look_back, n);
}

std::string name_ll(const long long& n) {
  return fmt::format("n_{}", n);
}

// ============================== compact ==============================

int poison_int() {
  int p;
  std::memset(&p, harness::kOutputPoison, sizeof p);
  return p;
}

// What a wrong compaction is: the right values in another order; writes past the last kept
// element.
harness::Advice compact_advice(const harness::Output<int>& out, const harness::Input<int>& xs) {
  return [out, xs](const harness::Mismatches& m) -> std::string {
    // Drawn on the host only when a message needs it.
    const std::vector<int> kept = scan::kept_elements(xs.host());
    const std::size_t k = kept.size();
    if (m.first >= k)
      return fmt::format(
          "out[{}] lies past the last kept element (out[{}]): nothing may be written there",
          m.first, k == 0 ? std::string("none") : std::to_string(k - 1));
    if (m.first_unwritten) return "";
    std::vector<int> got = out.download();
    got.resize(k);
    std::vector<int> a = got, b = kept;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a == b)
      return fmt::format(
          "out[0 .. {}] holds the kept elements, but in another order: element {} of the kept "
          "ones belongs at out[{}]. Each kept element's place is the number of kept elements "
          "before it in x (a scan of the flags), never the order in which threads arrive (an "
          "atomicAdd on a counter)",
          k - 1, m.first, m.first);
    return "";
  };
}

void compact(harness::Case& c, const long long& n) {
  c.describe("compact", tile_text(n) + ", keep(x) = x > 0");
  const std::size_t count = static_cast<std::size_t>(n);
  const auto x = c.input<int>("x", count, ScanValues{});
  const auto out = c.output<int>("out", count);
  const auto kept_count = c.output<long long>("count", 1);
  c.launch(scan::launch_compact, x, out, kept_count, n);
  c.ceiling(scan::launch_cub_select, x, out, kept_count, n);
  // The device reference: x drawn afresh into a buffer of the test's own, selected by
  // cub::DeviceSelect::If with keep() (the ceiling's launcher) into a poisoned buffer, so that
  // the elements past the kept ones hold the poison an untouched output holds.
  harness::DeviceBuffer<int> drawn(count), selected(count);
  harness::DeviceBuffer<long long> selected_count(1);
  harness::check(harness::fill_on_device(drawn.data(), count, x.seed(), ScanValues{}, 0),
                 "draw x again for the device reference");
  selected.poison();
  harness::check(
      scan::launch_cub_select(drawn.data(), selected.data(), selected_count.data(), n, 0),
      "select the device reference");
  const long long kept_n = selected_count.download()[0];  // vouched for below in correctness cases
  // Read x, write the kept elements (the 8 bytes of the count are not counted).
  c.bytes(4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(kept_n));
  const auto host_count = [&] {
    return std::vector<long long>{static_cast<long long>(scan::kept_elements(x.host()).size())};
  };
  c.expect_exact(
      kept_count,
      harness::reference(host_count, harness::ArrayElement<long long>{selected_count.data()}));
  const auto host_expected = [&] {
    const std::vector<int> kept = scan::kept_elements(x.host());
    std::vector<int> expected(count, poison_int());  // past the kept ones: untouched
    std::copy(kept.begin(), kept.end(), expected.begin());
    return expected;
  };
  c.expect_exact(out,
                 harness::reference(host_expected, harness::ArrayElement<int>{selected.data()}),
                 harness::flat(), compact_advice(out, x));
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::block_scan, kBlockSizes, harness::name_n, block_scan);
  harness::speed(Step::block_scan, block_timing, block_scan);
  harness::correctness(Step::device_scan, kDeviceSizes, name_ll, device_scan);
  harness::speed(Step::device_scan, device_timing, device_scan);
  harness::correctness(Step::look_back, kDeviceSizes, name_ll, look_back);
  harness::speed(Step::look_back, device_timing, look_back);
  harness::correctness(Step::compact, kDeviceSizes, name_ll, compact);
  harness::speed(Step::compact, device_timing, compact);
}
