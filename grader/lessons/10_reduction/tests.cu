// Hidden tests of lesson 10_reduction: "<step>/Correct.<case>" and "<step>/Speed.timed" for the
// steps narrow_rows and wide_rows (both through launch_row_sums, timed against the read rung
// row_sums_rung), arg_max (against cub::DeviceReduce::ArgMax) and deterministic_sum (against
// cub::DeviceReduce::Sum).
//
// Comparisons.
// - Row sums, integer data (SmallIntegers, host_reference.hpp): every row sum is exact in any
//   order of additions that does not depend on the values, so out is compared bit for bit with
//   the sums computed in double. A few shapes use the course's random floats (mixed magnitudes,
//   harness/draw.hpp) and the bound every order of additions meets: (cols - 1) u sum|row| (u =
//   2^-24, first order), plus 1%.
// - arg_max: the key is compared bit for bit with arg_max_key(max, lowest index of max): the
//   index and the value's bits both right.
// - deterministic_sum: *out within deterministic_sum_bound (host_reference.hpp) of the sum in
//   double, and the same bits again from a second run on the same grid and from three other
//   grids (1 and 3 blocks where the tiles are few, else a quarter of the default grid plus one
//   and the default plus one; then 4x the default). In the speed test one launch per timed
//   sample, the bound only.
// - The speed test's checks (the first one and the three replays of timed launches) compute their
//   references on the device from the inputs' seeds (RowSumOfDraws, arg_max_on_device,
//   sum_on_device); the correctness cases compute them on the host and vouch for the device ones.
//
// Sizes. Correctness cases stay at or below 2^22 + 3 elements, checked on the host, except one
// deterministic sum of 2^25 (where a sequential float loop leaves the error bound); each step's
// timing shape of 2^26 is checked on the device by its speed test.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "course/report.hpp"
#include "harness/lesson.hpp"
#include "host_reference.hpp"
#include "reduction.cuh"
#include "steps/10_reduction.hpp"

namespace {

using reduction::Step;

constexpr int kBlock = reduction::BLOCK_THREADS;

std::string thousands(long long v) {
  return course::group_thousands(static_cast<double>(v));
}

// ============================== row sums ==============================

// integers: SmallIntegers, exact. random: the harness's mixed magnitudes. mean_one: PositiveMean
// (floats in [0.5, 1.5)), where the sum of |x| is close to the sum, so the tolerance is tight
// enough to see an accumulator that drops each element's fraction.
enum class Data { integers, random, mean_one };

struct Matrix {
  long long rows, cols;
  Data data = Data::integers;
};

std::string matrix_name(const Matrix& m) {
  return fmt::format("{}x{}{}", m.rows, m.cols,
                     m.data == Data::random     ? "_random"
                     : m.data == Data::mean_one ? "_mean_one"
                                                : "");
}

// Rows of 1 .. 1024 floats: every team width (1, 2, 4, 8, 16, 32 lanes) with rows that fill a
// block and rows that leave teams idle in the last warp, widths one short of and one past a power
// of two, a single row, a single column 2^22 long (one lane per row). The timing shape (2^18 x
// 256) is checked by the speed test.
std::vector<Matrix> narrow_shapes() {
  std::vector<Matrix> out;
  for (const auto& [r, c] : std::vector<std::pair<long long, long long>>{
           {1, 1},     {3, 1},     {1000003, 1}, {1000, 2},    {999, 3},
           {1000, 4},  {517, 5},   {257, 8},     {4099, 16},   {4097, 17},
           {1025, 31}, {1000, 32}, {333, 33},    {257, 100},   {100, 255},
           {129, 256}, {77, 1000}, {1, 1024},    {4099, 1024}, {1LL << 22, 1}})
    out.push_back({r, c});
  for (const auto& [r, c] : std::vector<std::pair<long long, long long>>{{999, 3}, {257, 100}})
    out.push_back({r, c, Data::random});
  return out;
}

// Rows longer than 1024 floats: one part per row (many rows), several parts per row (rows fewer
// than the GPU's blocks), parts that end inside the row, rows of odd lengths, whose starts fall
// 4, 8 and 12 bytes past a 16-byte boundary (the float4 loads' head), a single row 2^22 long. The
// timing shape (64 x 2^20) is checked by the speed test.
std::vector<Matrix> wide_shapes() {
  std::vector<Matrix> out;
  for (const auto& [r, c] : std::vector<std::pair<long long, long long>>{{1, 1025},
                                                                         {3, 2047},
                                                                         {2, 1000003},
                                                                         {5, 65537},
                                                                         {7, 100003},
                                                                         {1000, 4099},
                                                                         {2048, 1500},
                                                                         {1, (1 << 22) + 3}})
    out.push_back({r, c});
  out.push_back({3, 100003, Data::random});
  // An int accumulator (int v; v += x[c]) is exact on whole numbers, and on the mixed magnitudes
  // its error (under 1 per addition, at most about 10^5 in a row of 100,003) hides in a tolerance
  // of about 2.8 x 10^7: the sum of |x| is about 4.7 x 10^9, 6 elements in 64 having magnitudes
  // up to 10^6 (harness/draw.hpp). On floats in [0.5, 1.5) it loses 0.5 per element on average,
  // about 10^4 in a row of 20,011, against a tolerance near 24 (1.01 x 20,011 x 2^-24 x 20,011).
  // 60,033 elements: within --quick's 2^16, so a quick grade sees it too.
  out.push_back({3, 20011, Data::mean_one});
  return out;
}

// 2^26 elements on GPUs with up to 64 MiB of L2 (>= 4x the L2): narrow rows of 256 floats (a
// warp per row, 8 floats per lane), wide rows few enough (64) that one block per row would
// leave half of an H200's 132 SMs idle.
Matrix narrow_timing() {
  const long long n = harness::timing_elements(1, sizeof(float));
  return {n / 256, 256};
}
Matrix wide_timing() {
  const long long n = harness::timing_elements(1, sizeof(float));
  return {64, n / 64};
}

int parts_of(const Matrix& m) {
  if (m.cols <= reduction::NARROW_MAX_COLS) return 0;
  int parts = 0;
  harness::check(reduction::row_parts(m.rows, m.cols, &parts), "row_parts");
  return parts;
}

std::string geometry(const Matrix& m) {
  if (m.cols <= reduction::NARROW_MAX_COLS) {
    const int lanes = reduction::row_team_lanes(m.cols);
    return fmt::format("{} lane{} per row, {} rows per block of 256", lanes, lanes > 1 ? "s" : "",
                       kBlock / lanes);
  }
  const int parts = parts_of(m);
  return fmt::format("{} block{} of 256 per row", parts, parts > 1 ? "s" : "");
}

// What a wrong row sum is: the sum of one part of a wide row (a store instead of atomicAdd), or
// one team lane's share of a narrow row (no shuffles, or shuffles of the wrong width).
harness::Advice row_advice(const Matrix& m, const harness::Input<float>& xs) {
  return [m, xs](const harness::Mismatches& mm) -> std::string {
    const std::vector<float>& x = xs.host();  // drawn on the host only when a message needs it
    if (mm.first_unwritten)
      return m.cols <= reduction::NARROW_MAX_COLS
                 ? "No thread wrote this row's sum: the first lane of the team that owns the row "
                   "(team t of block b owns row b * (256 / lanes) + t) must write it"
                 : "";
    const long long r = static_cast<long long>(mm.first);
    const double got = std::strtod(mm.got.c_str(), nullptr);
    const float* row = x.data() + r * m.cols;
    if (m.cols > reduction::NARROW_MAX_COLS) {
      const int parts = parts_of(m);
      for (int p = 0; p < parts && parts > 1; ++p) {
        double part = 0;
        const long long b = reduction::row_part_begin(m.cols, parts, p);
        const long long e = reduction::row_part_begin(m.cols, parts, p + 1);
        for (long long c = b; c < e; ++c) part += row[c];
        if (got == part)
          return fmt::format(
              "out[{}] is the sum of part {} of the row alone (columns {} .. {}; the row has {} "
              "parts, one block each): a plain store keeps only one block's part. Each block "
              "must add its part with atomicAdd(&out[row], block_sum)",
              r, p, b, e - 1, parts);
      }
      if (m.data != Data::mean_one) return "";
      double sum = 0;
      for (long long c = 0; c < m.cols; ++c) sum += row[c];
      // An honest float sum is off by at most the tolerance (about 24 for 20,011 columns);
      // dropping the fractions of floats in [0.5, 1.5) loses 0.5 per element on average (about
      // 0.5 +- 0.002 over 20,011 of them), a lost part or an unwritten row far more.
      const double lost = (sum - got) / static_cast<double>(m.cols);
      if (lost > 0.4 && lost < 0.6)
        return fmt::format(
            "out[{}] is {:.0f} short of the row's sum, {:.2f} per element of a row of floats in "
            "[0.5, 1.5): an int accumulator drops every element's fraction. Keep the thread's "
            "sum in a float",
            r, sum - got, lost);
      return "";
    }
    const int lanes = reduction::row_team_lanes(m.cols);
    double lane0 = 0;
    for (long long c = 0; c < m.cols; c += lanes) lane0 += row[c];
    if (lanes > 1 && got == lane0)
      return fmt::format(
          "out[{}] is lane 0's share of the row alone (columns 0, {}, {}, ...): the team's {} "
          "lanes must add their sums with __shfl_down_sync(0xffffffff, v, offset, {}) for offset "
          "= {} .. 1 before lane 0 writes",
          r, lanes, 2 * lanes, lanes, lanes, lanes / 2);
    return "";
  };
}

// The device reference of an integer row sum (harness::Reference): row r of SmallIntegers drawn
// from `seed`, added in 64-bit integers (exact). One thread per row: used where a row has at
// most 2^20 floats (the timing shapes included), the host's loop elsewhere.
struct RowSumOfDraws {
  std::uint64_t seed;
  long long cols;
  __device__ float operator()(std::size_t r) const {
    long long sum = 0;
    for (long long k = 0; k < cols; ++k)
      sum += static_cast<long long>(
          reduction::SmallIntegers{}(seed, static_cast<std::size_t>(r * cols + k)));
    return static_cast<float>(sum);
  }
};
constexpr long long kDeviceReferenceMaxCols = 1LL << 20;

void row_sums(harness::Case& c, const Matrix& m) {
  c.describe(
      m.cols <= reduction::NARROW_MAX_COLS ? "row_sums_narrow" : "row_sums_wide",
      fmt::format("{} x {} (rows x cols; {}){}", thousands(m.rows), thousands(m.cols), geometry(m),
                  m.data == Data::integers   ? ""
                  : m.data == Data::mean_one ? ", floats in [0.5, 1.5)"
                                             : ", random floats"));
  const std::size_t n = static_cast<std::size_t>(m.rows * m.cols);
  const auto x = m.data == Data::integers   ? c.input<float>("x", n, reduction::SmallIntegers{})
                 : m.data == Data::mean_one ? c.input<float>("x", n, reduction::PositiveMean{})
                                            : c.input<float>("x", n);
  const auto out = c.output<float>("out", static_cast<std::size_t>(m.rows));
  c.launch(reduction::launch_row_sums, x, out, m.rows, m.cols);
  c.ceiling(reduction::launch_row_sums_rung, x, out, m.rows, m.cols);
  c.bytes(4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(m.rows));
  const harness::Where where = [](const std::string& name, std::size_t r) {
    return fmt::format("{}[{}] (row {})", name, r, r);
  };
  const auto host_sums = [&] {
    const std::vector<double> exact = reduction::host_row_sums(x.host(), m.rows, m.cols);
    return std::vector<float>(exact.begin(), exact.end());
  };
  if (m.data == Data::integers && m.cols <= kDeviceReferenceMaxCols) {
    c.expect_exact(out, harness::reference(host_sums, RowSumOfDraws{x.seed(), m.cols}), where,
                   row_advice(m, x));
    return;
  }
  if (m.data == Data::integers) {  // one row longer than 2^20: the host's loop (never timed)
    c.expect_exact(out, host_sums(), where, row_advice(m, x));
    return;
  }
  const std::vector<double> exact = reduction::host_row_sums(x.host(), m.rows, m.cols);
  std::vector<double> tolerance(static_cast<std::size_t>(m.rows));
  for (long long r = 0; r < m.rows; ++r) {
    double magnitude = 0;
    for (long long k = 0; k < m.cols; ++k) magnitude += std::fabs(x.host()[r * m.cols + k]);
    tolerance[r] = harness::float_rounding_bound(static_cast<double>(m.cols), magnitude);
  }
  c.expect_near(out, exact, tolerance, where, row_advice(m, x));
}

// ============================== arg_max ==============================

enum class Plant {
  none,
  tie_middle_and_last,
  max_at_last,
  tie_in_thread,
  tie_in_warp,
  tie_across_warps,  // x[40] = x[grid + 3]: warp 1's maximum has the lower index
  tie_across_lanes,  // x[6] = x[grid + 5]: lane 6's maximum has the lower index
};

struct ArgMaxCase {
  long long n;
  float top;  // the draw's largest value
  int minus_inf_per_64;
  Plant plant = Plant::none;
};

std::string arg_max_name(const ArgMaxCase& a) {
  std::string data = a.minus_inf_per_64 == 64 ? "all_minus_inf"
                     : a.top < 0              ? "negative"
                                              : "top_zero";
  if (a.plant == Plant::tie_middle_and_last) data += "_tie_middle_last";
  if (a.plant == Plant::max_at_last) data += "_max_last";
  if (a.plant == Plant::tie_in_thread) data += "_tie_in_thread";
  if (a.plant == Plant::tie_in_warp) data += "_tie_in_warp";
  if (a.plant == Plant::tie_across_warps) data += "_tie_across_warps";
  if (a.plant == Plant::tie_across_lanes) data += "_tie_across_lanes";
  return fmt::format("n_{}_{}", a.n, data);
}

// Negative data with -infinity among it, whose maximum repeats at large n (within one thread's
// grid-stride share, across warps and across blocks); all -infinity (the answer is 0); a planted
// maximum at the last index; planted equal maxima in the middle and at the end, in one thread's
// share (a grid's width apart) and in one warp (neighbours); and equal maxima where the lower
// warp or lane found its maximum in a later pass of the grid-stride loop (element grid + 3 in warp
// 0 against element 40 in warp 1; grid + 5 in lane 5 against 6 in lane 6), so that a block or a
// warp that breaks ties by warp or lane order instead of by index shows.
std::vector<ArgMaxCase> arg_max_cases() {
  std::vector<ArgMaxCase> out;
  for (long long n : {1LL, 2LL, 31LL, 33LL, 257LL, 1000LL, 65537LL, 1000003LL, (1LL << 22) + 3})
    out.push_back({n, -1.0f, 4});
  for (long long n : {1000003LL, (1LL << 22) + 1}) out.push_back({n, 0.0f, 4});
  for (long long n : {1LL, 33LL, 100003LL}) out.push_back({n, -1.0f, 64});
  for (long long n : {3LL, 257LL, 1000003LL}) {
    out.push_back({n, -1.0f, 4, Plant::tie_middle_and_last});
    out.push_back({n, -1.0f, 4, Plant::max_at_last});
  }
  for (long long n : {1000LL, 1000003LL}) out.push_back({n, -1.0f, 4, Plant::tie_in_warp});
  out.push_back({1000003, -1.0f, 4, Plant::tie_in_thread});  // > the grid's threads on an H200
  out.push_back({1000003, -1.0f, 4, Plant::tie_across_warps});
  out.push_back({1000003, -1.0f, 4, Plant::tie_across_lanes});
  return out;
}

ArgMaxCase arg_max_timing() {
  return {harness::timing_elements(1, sizeof(float)), 0.0f, 4};
}

// The key of every block's best element under the launch's grid-stride loop (element i belongs to
// block (i / 256) % blocks), to recognise a result that is one block's alone.
std::vector<unsigned long long> block_best_keys(const std::vector<float>& x, int blocks) {
  std::vector<unsigned long long> best(static_cast<std::size_t>(blocks), 0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t b = (i / kBlock) % static_cast<std::size_t>(blocks);
    best[b] = std::max(best[b], reduction::arg_max_key(x[i], static_cast<long long>(i)));
  }
  return best;
}

// The two rules arg_max's advice teaches, each worded once.
constexpr char kTieRule[] =
    "on equal values the lowest index wins: replace a thread's best only when x[i] > best (not "
    ">=), and keep the lower index when combining lanes and warps";
constexpr char kMergeRule[] =
    "blocks finish in any order: each must merge its key with atomicMax(key, ...), not store it";

harness::Advice arg_max_advice(const harness::Input<float>& xs, int blocks) {
  return [xs, blocks](const harness::Mismatches& m) -> std::string {
    const std::vector<float>& x = xs.host();  // drawn on the host only when a message needs it
    const long long expected = reduction::host_arg_max(x);
    const unsigned long long got = std::strtoull(m.got.c_str(), nullptr, 10);
    const float max = x[static_cast<std::size_t>(expected)];
    const std::string want =
        fmt::format("the answer is index {} (x[{}] = {})", expected, expected, harness::show(max));
    if (m.first_unwritten) return "*key was never written (the launcher sets it to 0 first)";
    if (got == 0)
      return fmt::format(
          "*key is still 0: no block did atomicMax with an element's key; {}. Does each thread "
          "start from 0.0f instead of \"no element yet\"? On data that is all negative or "
          "-INFINITY nothing beats 0",
          want);
    const long long i = reduction::key_index(got);
    if (i < 0 || i >= static_cast<long long>(x.size()))
      return fmt::format(
          "*key names index {}, outside the array of {}; {}. Build keys with "
          "arg_max_key(x[i], i)",
          i, x.size(), want);
    const float v = x[static_cast<std::size_t>(i)];
    if (got != reduction::arg_max_key(v, i))
      return fmt::format("*key is not arg_max_key(x[{}], {}): build every key with arg_max_key", i,
                         i);
    long long last = expected;  // the highest index holding the maximum
    for (std::size_t k = x.size(); k-- > 0;)
      if (x[k] == max) {
        last = static_cast<long long>(k);
        break;
      }
    const std::string ties =
        fmt::format("*key names index {}, and x[{}] = {} is a maximum too, but {}: {}", i, i,
                    harness::show(v), want, kTieRule);
    // The last maximum: what last_index_on_ties gives, so the ties advice first, even where it is
    // also one block's best (a lost atomicMax's key can be, in the cases with planted maxima; the
    // others name that cause).
    if (v == max && i == last) return ties;
    // A higher index of the same block: the block broke a tie by warp or lane order (its own
    // elements; a lost block's key would name another block's).
    const auto block_of = [blocks](long long k) { return (k / kBlock) % blocks; };
    const long long home = block_of(expected);
    if (v == max && i > expected && block_of(i) == home) return ties;
    const std::vector<unsigned long long> best = block_best_keys(x, blocks);
    for (int b = 0; b < blocks && blocks > 1; ++b) {
      if (got != best[static_cast<std::size_t>(b)]) continue;
      // A maximum too, and block b's best: from the key alone, block b's key may be the only one
      // that arrived, or the expected index's block may have broken a tie toward a higher index
      // (its key then lost to block b's). Say both.
      if (v == max)
        return fmt::format(
            "*key names index {}, x[{}] = {}: a maximum too, and the best of block {}'s "
            "elements; but {}, in block {}. Either only one block's elements made it into *key "
            "({}), or block {} broke a tie toward a higher index and lost to block {} ({})",
            i, i, harness::show(v), b, want, home, kMergeRule, home, b, kTieRule);
      return fmt::format(
          "*key is the best of block {}'s elements, and only one block's elements made it into "
          "*key; {}: {}",
          b, want, kMergeRule);
    }
    if (v == max && i > expected) return ties;
    if (v < max)
      return fmt::format(
          "*key names index {}, x[{}] = {}, which is not the maximum; {}. Build keys with "
          "arg_max_key, whose unsigned order is the values' order (the raw bits of negative "
          "floats compare the wrong way)",
          i, i, harness::show(v), want);
    return "";
  };
}

// The key of element i of ArgMaxValues drawn from `seed`; their maximum, computed on the device,
// is the expected key (the speed test's reference: the host would draw and scan 2^26 values for
// each check), the same in any order.
struct KeyOfDraw {
  std::uint64_t seed;
  reduction::ArgMaxValues draw;
  __device__ unsigned long long operator()(std::size_t i) const {
    return reduction::arg_max_key(draw(seed, i), static_cast<long long>(i));
  }
};

unsigned long long arg_max_on_device(std::uint64_t seed, std::size_t n,
                                     reduction::ArgMaxValues draw) {
  return harness::max_on_device<unsigned long long>(n, KeyOfDraw{seed, draw});
}

// Where `plant` puts the value 7, above every drawn one, in n elements under a grid of `grid`
// threads (element i is thread i % grid's, in pass i / grid). Thread 5 of block 0 holds elements
// 5, grid + 5, ...; lanes 5 and 6 of its warp are neighbours; element 40 is warp 1's (lane 8).
// With one block of 256 threads the grid's width is 256. Past the end, the last element instead.
std::vector<std::size_t> planted_maxima(Plant plant, std::size_t n, std::size_t grid) {
  std::vector<std::size_t> at;
  switch (plant) {
    case Plant::none:
      break;
    case Plant::tie_middle_and_last:
      at = {n / 2, n - 1};
      break;
    case Plant::max_at_last:
      at = {n - 1};
      break;
    case Plant::tie_in_thread:
      at = {5, grid + 5};
      break;
    case Plant::tie_in_warp:
      at = {5, 6};
      break;
    case Plant::tie_across_warps:
      at = {40, grid + 3};
      break;
    case Plant::tie_across_lanes:
      at = {6, grid + 5};
      break;
  }
  for (std::size_t& i : at) i = std::min(i, n - 1);
  return at;
}

void arg_max(harness::Case& c, const ArgMaxCase& a) {
  int blocks = 0;
  harness::check(reduction::default_blocks(a.n, &blocks), "default_blocks");
  c.describe("arg_max", fmt::format("n = {}, {} ({} blocks of 256 threads)", thousands(a.n),
                                    a.minus_inf_per_64 == 64 ? "every element -inf"
                                    : a.top < 0 ? "whole numbers -4096 .. -1 and 1/16 -inf"
                                                : "whole numbers -4095 .. 0 and 1/16 -inf",
                                    blocks));
  const std::size_t n = static_cast<std::size_t>(a.n);
  const reduction::ArgMaxValues draw{a.top, a.minus_inf_per_64};
  const auto x = c.input<float>("x", n, draw);
  for (std::size_t i : planted_maxima(a.plant, n, static_cast<std::size_t>(blocks) * kBlock))
    x.set(i, 7.0f);
  const auto key = c.output<unsigned long long>("key", 1);
  c.launch(reduction::launch_arg_max, x, a.n, key);
  c.ceiling(reduction::launch_cub_arg_max, x, a.n, key);
  c.bytes(4.0 * static_cast<double>(a.n));
  unsigned long long expected = 0;
  if (c.timing()) {
    expected = arg_max_on_device(x.seed(), n, draw);
  } else {
    const long long best = reduction::host_arg_max(x.host());
    expected = reduction::arg_max_key(x.host()[static_cast<std::size_t>(best)], best);
    if (c.all_drawn())
      c.vouch(std::vector<unsigned long long>{expected}, {arg_max_on_device(x.seed(), n, draw)});
  }
  c.expect_exact(key, std::vector<unsigned long long>{expected}, harness::flat(),
                 arg_max_advice(x, blocks));
}

// ============================== deterministic_sum ==============================

struct SumCase {
  long long n;
};

std::string sum_name(const SumCase& s) {
  return fmt::format("n_{}", s.n);
}

// One element; fewer than a block's threads; one short of / at / one past a tile; several tiles
// per block (65,537 on 1 and 3 blocks, 2^25 on the default grid); a partial last tile after
// many whole ones; 2^25 elements of mean 1, where a sequential float loop loses two to three
// digits.
std::vector<SumCase> sum_cases() {
  std::vector<SumCase> out;
  for (long long n :
       {1LL, 2LL, 31LL, 16383LL, 16384LL, 16385LL, 65537LL, 1000003LL, (1LL << 22) + 5, 1LL << 25})
    out.push_back({n});
  return out;
}

SumCase sum_timing() {
  return {harness::timing_elements(1, sizeof(float))};
}

std::string bits_of(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return fmt::format("{} (bits 0x{:08x})", harness::show(v), b);
}

// What an unwritten *out means in a kernel whose last block writes it.
constexpr const char* kNoLastBlock =
    "No block wrote *out. The block whose ticket, atomicAdd(blocks_done, 1), is gridDim.x - 1 "
    "must sum the partials and write *out; and *blocks_done must be 0 again when the kernel ends "
    "(the last block sets it back to 0), or the next launch finds no last block";

harness::Advice sum_advice(const harness::Input<float>& xs, double tolerance) {
  return [xs, tolerance](const harness::Mismatches& m) -> std::string {
    if (m.first_unwritten) return kNoLastBlock;
    const std::vector<float>& x = xs.host();  // drawn on the host only when a message needs it
    const double got = std::strtod(m.got.c_str(), nullptr);
    const long long tiles = reduction::sum_tiles(static_cast<long long>(x.size()));
    double head = 0;
    for (long long i = 0; i < tiles; ++i) head += x[static_cast<std::size_t>(i)];
    if (static_cast<long long>(x.size()) > tiles && std::fabs(got - head) <= tolerance)
      return fmt::format(
          "*out is the sum of x[0] .. x[{}], the first {} elements of the input: pass 2 must read "
          "partials[0 .. {}], the tile sums pass 1 wrote, not x",
          tiles - 1, tiles, tiles - 1);
    return "";
  };
}

// The sum of n PositiveMean values drawn from `seed`, in double on the device (the speed test's
// reference). Double atomics add in any order: within about 1e-16 x n of the exact sum, far
// inside the float bound; every value is positive, so it is also sum|x|.
double sum_on_device(std::uint64_t seed, std::size_t n) {
  return harness::sum_on_device<double>(
      n, harness::DrawnElement<double, reduction::PositiveMean>{seed});
}

void sum_case(harness::Case& c, const SumCase& s) {
  int blocks = 0;
  harness::check(reduction::default_blocks(s.n, &blocks), "default_blocks");
  const long long tiles = reduction::sum_tiles(s.n);
  c.describe(
      "deterministic_sum",
      fmt::format("n = {} floats in [0.5, 1.5) ({} tile{} of {}; {} blocks)", thousands(s.n),
                  thousands(tiles), tiles > 1 ? "s" : "", thousands(reduction::SUM_TILE), blocks));
  const std::size_t n = static_cast<std::size_t>(s.n);
  const auto x = c.input<float>("x", n, reduction::PositiveMean{});
  const auto partials = c.output<float>("partials", static_cast<std::size_t>(tiles));
  const auto out = c.output<float>("out", 1);
  c.launch(reduction::launch_deterministic_sum, x, s.n, partials, out, blocks);
  c.ceiling(reduction::launch_cub_sum, x, s.n, partials, out, blocks);
  c.bytes(4.0 * static_cast<double>(s.n));
  // Every value is positive: sum|x| is the sum itself.
  double exact = 0;
  if (c.timing()) {
    exact = sum_on_device(x.seed(), n);
  } else {
    for (float v : x.host()) exact += v;
  }
  const double bound = reduction::deterministic_sum_bound(s.n, exact);
  if (!c.timing() && c.all_drawn()) {
    const double device = sum_on_device(x.seed(), n);
    c.vouch({exact}, {bound},
            {harness::Near{device, reduction::deterministic_sum_bound(s.n, device)}});
  }
  c.expect_near(out, {exact}, {bound}, harness::flat(), sum_advice(x, bound));
  if (c.timing()) return;  // timed launches: one each, on the default grid

  // The same bits again: a second run on the same grid, then other grids. One block (or three)
  // only where the tiles are few: one block reading 2^25 floats would take a second.
  const float first = out.download()[0];
  if (harness::still_poisoned(first)) return;  // reported above as never written
  const auto again = [&](int grid) {
    c.launch(reduction::launch_deterministic_sum, x, s.n, partials, out, grid);
    return out.download()[0];
  };
  const float second = again(blocks);
  if (harness::still_poisoned(second)) {
    c.fail(fmt::format(
        "the first run wrote *out = {}, but a second run on the same grid ({} blocks) never wrote "
        "it. Was *blocks_done left at {} by the first run? The last block must set it back to 0: "
        "the next launch's tickets start from it",
        bits_of(first), blocks, blocks));
    return;
  }
  if (std::memcmp(&first, &second, sizeof first) != 0) {
    c.fail(fmt::format(
        "two runs on the same grid ({} blocks) gave different bits: {} and then {}. Something in "
        "the sum depends on timing: float atomics (their order changes from run to run), or a "
        "race (a missing __syncthreads())",
        blocks, bits_of(first), bits_of(second)));
    return;
  }
  const std::vector<int> grids = tiles <= 16
                                     ? std::vector<int>{1, 3, 4 * blocks}
                                     : std::vector<int>{blocks / 4 + 1, blocks + 1, 4 * blocks};
  for (int grid : grids) {
    const float other = again(grid);
    if (std::memcmp(&first, &other, sizeof first) != 0) {
      c.fail(fmt::format(
          "{} blocks and {} block{} gave different bits: {} and {}. The order of the additions "
          "must not depend on the grid: sum fixed tiles (tile t = elements t * {} .. t * {} + {}), "
          "not each thread's grid-stride share, and add the tile sums in an order fixed by their "
          "number",
          blocks, grid, grid > 1 ? "s" : "", bits_of(first), bits_of(other), reduction::SUM_TILE,
          reduction::SUM_TILE, reduction::SUM_TILE - 1));
      return;
    }
  }
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::narrow_rows, narrow_shapes(), matrix_name, row_sums);
  harness::speed(Step::narrow_rows, narrow_timing, row_sums);
  harness::correctness(Step::wide_rows, wide_shapes(), matrix_name, row_sums);
  harness::speed(Step::wide_rows, wide_timing, row_sums);
  harness::correctness(Step::arg_max, arg_max_cases(), arg_max_name, arg_max);
  harness::speed(Step::arg_max, arg_max_timing, arg_max);
  harness::correctness(Step::deterministic_sum, sum_cases(), sum_name, sum_case);
  harness::speed(Step::deterministic_sum, sum_timing, sum_case);
}
