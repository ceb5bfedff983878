// Hidden tests of lesson 05_warps: "uniform_branch/Correct.<case>" and "uniform_branch/Speed.timed"
// (against branch_rung), "warp_reduce/Correct.<case>" (no speed test), "array_sum/Correct.<case>"
// and "array_sum/Speed.timed" (against cub::DeviceReduce::Sum).
//
// Comparisons.
// - uniform_branch: every step of even_work (a multiply and an add, rounded separately) and of
//   odd_work (a fused multiply-add) is rounded the same way on the host and on the device (see
//   warps.cuh), so out is compared bit for bit with the host's chains. The inputs are
//   drawn from a pool of 4096 random floats (the host evaluates each chain 4096 times, not n
//   times: 2^26 elements x 128 steps would take the host seconds).
// - warp_reduce: the inputs are integers of magnitude at most 100 stored as floats. A group's
//   partial sums then stay below 3200 < 2^24 in magnitude, every partial sum is an integer that
//   a float holds exactly, and the sum is exact in every order of additions: compared bit for
//   bit, like the maximum (which never rounds).
// - array_sum, integer inputs: nonzero integers in [-8, 8]. Every partial sum of any order of
//   additions is exact as long as its magnitude stays at most 2^24. For n <= 2^21 that holds for
//   every order, since |partial| <= sum |x| <= 8n <= 2^24. For the larger sizes it holds for every
//   order that does not depend on the values: a partial sum is then a sum of m <= n independent,
//   symmetric terms in [-8, 8], and by Hoeffding's inequality P(|S| >= 2^24) <=
//   2 exp(-2 * 2^48 / (16^2 m)), below 10^-7000 for m <= 2^27. So the sum is compared exactly: a
//   dropped or doubled element changes it (every element is nonzero), which a tolerance scaled
//   to 2^26 elements would hide.
// - array_sum, both kinds of data: where the drawn values of a correctness case sum to exactly 0
//   (possible for any n of integers: 1 in 16 at n = 2, about 1 in 70 at n = 31; n = 1 random
//   float: 2 in 64), x[0] is negated (or made 1 if it is 0), so the sum is never 0 and a kernel
//   that adds nothing (*out keeps the launcher's 0) never matches.
// - array_sum, random floats (harness::random_floats: mixed magnitudes): compared with the sum
//   computed in double. An order of additions whose longest chain of dependent additions has L
//   links returns the exact sum within L u sum|x| (first order, u = 2^-24, each link rounding
//   once; Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 4.2). The
//   course's launch gives a thread ceil(n / T) elements of the loop (T threads in the grid), then
//   5 shuffle levels in the warp and 5 in the block, then up to G atomicAdds (G blocks) in a row
//   on *out: L <= ceil(n / T) + 10 + G. The tolerance allows L = ceil(n / T) + 16 + G (room for
//   a tree of 8 levels per tile instead of shuffles) and 1% on top for the higher-order terms.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "course/report.hpp"
#include "harness/lesson.hpp"
#include "host_reference.hpp"
#include "steps/05_warps.hpp"
#include "warps.cuh"

namespace {

using warps::branch_expected;
using warps::BranchInput;
using warps::NonzeroIntegers;
using warps::Step;

constexpr int kBlock = warps::BLOCK_THREADS;
constexpr int kWarp = warps::WARP_SIZE;

// ============================== uniform_branch ==============================

// One element, one short of / at / one past a warp and a block, odd sizes, primes, many blocks.
const std::vector<int> kBranchSizes = {1,   2,   31,  32,   33,   63,    255,
                                       256, 257, 511, 1000, 4099, 65537, 1000003};

// in + out are at least 4x the L2 (2^26 elements on an H200), as for the memory-bound steps:
// this step is bound by arithmetic, but the rule costs nothing.
int branch_timing() {
  return static_cast<int>(harness::timing_elements(2, sizeof(float)));
}

// What the first wrong element says: the other parity's chain, or no thread at all.
harness::Advice branch_advice(const harness::Input<float>& xs) {
  return [xs](const harness::Mismatches& m) -> std::string {
    const std::size_t i = m.first;
    const std::vector<float>& x = xs.host();
    if (m.first_unwritten)
      return fmt::format(
          "No thread wrote out[{}], element {} of block {}. Each block's 256 threads must cover "
          "its 256 elements exactly once: with warps 0-3 on the even elements and warps 4-7 on "
          "the odd ones, thread t of the second half takes pair t - 128",
          i, i % kBlock, i / kBlock);
    const float other = (i % 2 == 1) ? warps::even_work(x[i]) : warps::odd_work(x[i]);
    if (harness::show(other) == m.got)
      return fmt::format(
          "out[{}] holds {}(x[{}]), the chain of the other parity: element {} is {}, and the "
          "chain follows the element's index, not the thread's",
          i, (i % 2 == 1) ? "even_work" : "odd_work", i, i, (i % 2 == 1) ? "odd" : "even");
    return "";
  };
}

// The device reference (harness::Reference): element i's chain on x[i] as drawn, computed with
// the same functions as the host's (warps.cuh), which agree bit for bit on both sides.
struct BranchOfDraws {
  std::uint64_t seed;
  __device__ float operator()(std::size_t i) const {
    const float x = BranchInput{}(seed, i);
    return (i % 2 == 1) ? warps::odd_work(x) : warps::even_work(x);
  }
};

void uniform_branch(harness::Case& c, const int& n) {
  c.describe("uniform_branch", fmt::format("n = {} (ceil(n / 256) blocks of 256 threads)",
                                           course::group_thousands(n)));
  const auto x = c.input<float>("x", static_cast<std::size_t>(n), BranchInput{});
  const auto out = c.output<float>("out", static_cast<std::size_t>(n));
  c.launch(warps::launch_uniform_branch, x, out, n);
  c.ceiling(warps::launch_branch_rung, x, out, n);
  c.bytes(8.0 * n);  // read x[i], write out[i]; the time is in the chains, the gate is a ratio
  c.expect_exact(
      out,
      harness::reference([&] { return branch_expected(static_cast<std::size_t>(n), x.seed()); },
                         BranchOfDraws{x.seed()}),
      harness::flat(), branch_advice(x));
}

// ============================== warp_reduce ==============================

enum class Values { negative, mixed };

struct ReduceShape {
  int n;
  Values values;
};

// Partial last warps of every size class (n % 32 = 1, 5, 31, 8, ...), whole warps (32, 256), a
// grid whose last block holds idle warps (33: warps 2-7 of block 0 hold nothing), primes, many
// blocks; each on negative integers (a maximum that lets lanes past n contribute 0 is wrong) and
// on integers of both signs.
std::vector<ReduceShape> reduce_shapes() {
  std::vector<ReduceShape> out;
  for (int n : {1, 5, 31, 32, 33, 63, 255, 256, 257, 1000, 1023, 4099, 65537, 1000003})
    for (Values v : {Values::negative, Values::mixed}) out.push_back({n, v});
  return out;
}

std::string reduce_name(const ReduceShape& s) {
  return fmt::format("n_{}_{}", s.n, s.values == Values::negative ? "negative" : "mixed");
}

std::vector<float> small_integers(std::size_t n, Values v, std::uint64_t seed) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = harness::mix(seed + i);
    x[i] = v == Values::negative ? -static_cast<float>(1 + r % 100)
                                 : static_cast<float>(static_cast<int>(r % 201) - 100);
  }
  return x;
}

// "sums[31] (elements 992 .. 999)".
harness::Where group_where(int n) {
  return [n](const std::string& name, std::size_t g) {
    const long long first = static_cast<long long>(g) * kWarp;
    const long long last = std::min<long long>(first + kWarp, n) - 1;
    return fmt::format("{}[{}] (elements {} .. {})", name, g, first, last);
  };
}

harness::Advice reduce_advice(int n, bool is_max) {
  return [n, is_max](const harness::Mismatches& m) -> std::string {
    const long long g = static_cast<long long>(m.first);
    const long long groups = warps::warp_groups(n);
    const int live = static_cast<int>(std::min<long long>(kWarp, n - g * kWarp));
    std::string out;
    if (m.first_unwritten) return "Lane 0 of the warp that holds this group must write it";
    if (g == groups - 1 && live < kWarp) {
      out = fmt::format(
          "Group {} is the last warp, and only its lanes 0-{} hold elements (n = {}). Lanes "
          "{}-31 must stay in the warp and take part in every shuffle, holding the identity: 0 "
          "for the sum, -INFINITY for the maximum. A lane that returns early is not there when "
          "the others read from it (what a lane reads from an exited lane is undefined)",
          g, live - 1, n, live);
      if (is_max && m.got == "0")
        out +=
            ". Here the maximum came out as 0: 0 is not the identity of a maximum when every "
            "element is negative";
      return out;
    }
    return "";
  };
}

void warp_reduce(harness::Case& c, const ReduceShape& s) {
  c.describe(
      "warp_reduce",
      fmt::format("n = {} {} integers (ceil(n / 256) blocks of 256 threads, {} groups of 32)",
                  course::group_thousands(s.n),
                  s.values == Values::negative ? "negative" : "positive and negative",
                  warps::warp_groups(s.n)));
  const std::size_t n = static_cast<std::size_t>(s.n);
  const std::size_t groups = static_cast<std::size_t>(warps::warp_groups(s.n));
  const auto x = c.input<float>("x", small_integers(n, s.values, c.seed()));
  const auto sums = c.output<float>("sums", groups);
  const auto maxs = c.output<float>("maxs", groups);
  c.launch(warps::launch_warp_reduce, x, sums, maxs, s.n);
  std::vector<float> sum(groups, 0.0f), max(groups, -INFINITY);
  for (std::size_t i = 0; i < n; ++i) {
    sum[i / kWarp] += x.host()[i];
    max[i / kWarp] = std::max(max[i / kWarp], x.host()[i]);
  }
  c.expect_exact(sums, sum, group_where(s.n), reduce_advice(s.n, false));
  c.expect_exact(maxs, max, group_where(s.n), reduce_advice(s.n, true));
}

// ============================== array_sum ==============================

enum class Data { integers, random };

struct SumShape {
  long long n;
  Data data;
};

// 1 element; one short of / one past a warp and a block; primes; sizes whose grid is one block,
// several blocks, and (on GPUs with up to 2048 SMs at 8 blocks of 256 threads each) several
// passes of the grid-stride loop; and the timing size plus 17.
std::vector<SumShape> sum_shapes() {
  std::vector<SumShape> out;
  for (long long n : {1LL, 2LL, 31LL, 33LL, 255LL, 257LL, 1000LL, 4099LL, 65537LL, 1000003LL,
                      4194305LL, (1LL << 26) + 17})
    out.push_back({n, Data::integers});
  for (long long n : {1LL, 33LL, 257LL, 4099LL, 1000003LL}) out.push_back({n, Data::random});
  return out;
}

std::string sum_name(const SumShape& s) {
  return fmt::format("n_{}_{}", s.n, s.data == Data::integers ? "integers" : "random");
}

// One array of 2^26 floats on a GPU with up to 64 MiB of L2 (>= 4x the L2); 2^28 above that.
SumShape sum_timing() {
  return {harness::timing_elements(1, sizeof(float)), Data::integers};
}

// Negates x[0] (or makes it 1 if it is 0) where the values sum to exactly 0 (in double, exact
// for the integer data): *out = 0 must never be a right answer. Correctness cases only: the
// timing shape (2^26 elements and more) is drawn anew for every timed launch, and sums to 0 about
// once in 10^5 draws.
void never_summing_to_zero(const harness::Case& c, const harness::Input<float>& x) {
  if (c.timing() || x.size() == 0) return;
  double sum = 0;
  for (float v : x.host()) sum += v;
  if (sum == 0) x.set(0, x.host()[0] != 0 ? -x.host()[0] : 1.0f);
}

int sum_grid(long long n) {
  int blocks = 0;
  harness::check(warps::array_sum_blocks(n, &blocks), "array_sum_blocks");
  return blocks;
}

// What a wrong integer sum is: one block's part (a store instead of atomicAdd), or the grid's
// first pass only (no grid-stride loop). Exact in double: every partial sum here is an integer.
harness::Advice sum_advice(const harness::Input<float>& xs, int blocks) {
  return [xs, blocks](const harness::Mismatches& m) -> std::string {
    const std::vector<float>& x = xs.host();
    const double got = std::strtod(m.got.c_str(), nullptr);
    const long long threads = static_cast<long long>(blocks) * kBlock;
    std::vector<double> block_part(static_cast<std::size_t>(blocks), 0.0);
    double first_pass = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const long long t = static_cast<long long>(i) % threads;
      block_part[static_cast<std::size_t>(t / kBlock)] += x[i];
      if (static_cast<long long>(i) < threads) first_pass += x[i];
    }
    const std::string every =
        " Every element must be added exactly once, and each block's sum must reach *out with "
        "atomicAdd";
    if (blocks > 1 && got == first_pass && static_cast<long long>(x.size()) > threads)
      return fmt::format(
          "*out is the sum of x[0] .. x[{}] only, the grid's first pass ({} threads): each "
          "thread must loop over its elements, stepping by blockDim.x * gridDim.x, while the "
          "index is below n.{}",
          threads - 1, threads, every);
    for (int b = 0; b < blocks && blocks > 1; ++b)
      if (got == block_part[static_cast<std::size_t>(b)])
        return fmt::format(
            "*out is block {}'s part of the sum alone ({} blocks in the grid): a plain store "
            "*out = ... keeps the block that finished last; blocks must add with "
            "atomicAdd(out, block_sum).{}",
            b, blocks, every);
    return "";
  };
}

// The exact sum of n NonzeroIntegers drawn from `seed`, on the device (the speed test's
// reference: the host would draw and add 2^26 values for each check): integers, exact in any
// order.
double integer_sum_on_device(std::uint64_t seed, std::size_t n) {
  return static_cast<double>(harness::sum_on_device<long long>(
      n, harness::DrawnElement<long long, NonzeroIntegers>{seed}));
}

void array_sum(harness::Case& c, const SumShape& s) {
  const int blocks = sum_grid(s.n);
  c.describe("array_sum",
             fmt::format("n = {} {} ({} blocks of 256 threads)",
                         course::group_thousands(static_cast<double>(s.n)),
                         s.data == Data::integers ? "nonzero integers in [-8, 8]" : "random floats",
                         blocks));
  const std::size_t n = static_cast<std::size_t>(s.n);
  const auto x =
      s.data == Data::integers ? c.input<float>("x", n, NonzeroIntegers{}) : c.input<float>("x", n);
  never_summing_to_zero(c, x);
  const auto out = c.output<float>("out", 1);
  c.launch(warps::launch_array_sum, x, out, s.n);
  c.ceiling(warps::launch_cub_sum, x, out, s.n);
  c.bytes(4.0 * static_cast<double>(s.n));  // read x once; the 4 bytes of *out are not counted
  if (s.data == Data::integers) {
    // integers: exact in double as well (|sum| < 2^53); the speed test's on the device
    double exact = 0;
    if (c.timing()) {
      exact = integer_sum_on_device(x.seed(), n);
    } else {
      for (float v : x.host()) exact += v;
      if (c.all_drawn()) c.vouch(std::vector<double>{exact}, {integer_sum_on_device(x.seed(), n)});
    }
    c.expect_exact(out, std::vector<float>{static_cast<float>(exact)}, harness::flat(),
                   sum_advice(x, blocks));
    return;
  }
  double exact = 0, magnitude = 0;
  for (float v : x.host()) {
    exact += v;
    magnitude += std::fabs(v);
  }
  const long long threads = static_cast<long long>(blocks) * kBlock;
  const double links = static_cast<double>((s.n + threads - 1) / threads + 16 + blocks);
  const double tolerance = harness::float_rounding_bound(links, magnitude);
  c.expect_near(out, {exact}, {tolerance});
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::uniform_branch, kBranchSizes, harness::name_n, uniform_branch);
  harness::speed(Step::uniform_branch, branch_timing, uniform_branch);
  harness::correctness(Step::warp_reduce, reduce_shapes(), reduce_name, warp_reduce);
  harness::correctness(Step::array_sum, sum_shapes(), sum_name, array_sum);
  harness::speed(Step::array_sum, sum_timing, array_sum);
}
