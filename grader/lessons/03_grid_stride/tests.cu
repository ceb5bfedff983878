// Hidden tests of lesson 03_grid_stride: "grid_stride/Correct.<case>" (every size under four
// grids), "grid_stride/Speed.timed" (against copy_grid_stride on the 4-blocks-per-SM grid) and
// "large/Correct.<case>" (n = 2^31 + 17, on the 4-blocks-per-SM grid and on the full grid).
//
// Comparison. The scale a is a power of two (never 0), so a * x[i] is exact and a * x[i] + y[i]
// is rounded once whether the compiler fuses the multiply-add or not: y is compared bit for bit.
// An element still equal to its initial value counts as never updated (harness::InOut).
//
// The grids. Blocks always have 256 threads; the tests choose the grid, so a kernel that assumes
// one thread per element fails on the small grids, and one that lets several blocks walk the same
// elements fails on every grid of more than one block. The SM count is queried when a test runs
// (never when the tests are listed, which needs no GPU), so case names say "4_per_SM", not 528.
//
// The large step keeps x, y and the expected y on the device (Case::keep_on_device(): drawn,
// computed by saxpy_reference and compared there), so it needs about 24.5 GiB of device memory
// (3 arrays of 8 GiB, and guard elements of 16 MiB after x and y) and almost no host memory; it is
// skipped, with the reason, where the memory is missing, and under --skip-large (the grader's
// --quick).
#include <cstdlib>
#include <string>
#include <vector>

#include "course/report.hpp"
#include "grid_stride.cuh"
#include "harness/lesson.hpp"
#include "harness/resources.hpp"
#include "steps/03_grid_stride.hpp"

namespace {

using grid_stride::Step;

// ============================== grids and cases ==============================

enum class Grid { one, few, per_sm, full };
constexpr Grid kGrids[] = {Grid::one, Grid::few, Grid::per_sm, Grid::full};
constexpr int kFewBlocks = 3;

struct Shape {
  long long n;
  Grid grid;
};

int sm_count() {
  int sms = 0;
  harness::check(grid_stride::multiprocessor_count(&sms), "multiprocessor_count");
  return sms;
}

int blocks_for(Grid g, long long n) {
  switch (g) {
    case Grid::one:
      return 1;
    case Grid::few:
      return kFewBlocks;
    case Grid::per_sm:
      return grid_stride::BLOCKS_PER_SM * sm_count();
    case Grid::full:
      return static_cast<int>(grid_stride::full_grid_blocks(n));
  }
  return 1;
}

std::string case_name(const Shape& s) {
  static const char* const kNames[] = {"1_block", "3_blocks", "4_per_SM", "full"};
  return fmt::format("n_{}_grid_{}", s.n, kNames[static_cast<int>(s.grid)]);
}

// "528 blocks (4 per SM x 132 SMs)", as the case's description says it.
std::string grid_words(Grid g, int blocks) {
  switch (g) {
    case Grid::one:
      return "1 block";
    case Grid::few:
      return fmt::format("{} blocks", blocks);
    case Grid::per_sm:
      return fmt::format("{} blocks ({} per SM x {} SMs)", blocks, grid_stride::BLOCKS_PER_SM,
                         blocks / grid_stride::BLOCKS_PER_SM);
    case Grid::full:
      return fmt::format("{} blocks (ceil(n / 256): one thread per element)", blocks);
  }
  return "";
}

// One short of, at and one past a warp (32), a block (256) and the three-block grid (768); primes;
// multi-pass sizes for every grid but the full one.
const std::vector<long long> kSizes = {1,   2,   31,   32,   33,    255,    256,     257,
                                       767, 769, 1000, 4099, 65537, 100003, 1000003, (1 << 22) + 1};

std::vector<Shape> grid_stride_cases() {
  std::vector<Shape> out;
  for (long long n : kSizes)
    for (Grid g : kGrids) out.push_back({n, g});
  return out;
}

// Two arrays of 2^26 floats on a GPU with up to 128 MiB of L2 (x and y >= 4x the L2).
Shape timing_shape() {
  return {harness::timing_elements(2, sizeof(float)), Grid::per_sm};
}

// Just past the largest int, 2^31 - 1: the first 17 elements past it, and every index computed
// on the way there, need 64 bits. On the 4-per-SM grid the stride addition crosses 2^31 - 1; on
// the full grid (8,388,609 blocks) the thread's own global index does.
constexpr long long kLargeN = (1LL << 31) + 17;
const std::vector<Shape> kLargeCases = {{kLargeN, Grid::per_sm}, {kLargeN, Grid::full}};

// ============================== the case ==============================

// A power of two, never 0 (a kernel that leaves y alone must not match), picked by the seed.
float scale_for(std::uint64_t seed) {
  static const float kScales[] = {2.0f, -0.5f, 4.0f, -2.0f, 0.25f, -4.0f, 0.5f};
  return kScales[seed % (sizeof(kScales) / sizeof(kScales[0]))];
}

// What the first wrong element says about the kernel: never updated (its thread and pass), or
// updated k > 1 times (y + k * a * x, found by repeating the update on the host).
harness::Advice advice(long long threads, float a, const harness::Input<float>& xs,
                       const harness::InOut<float>& ys) {
  return [=](const harness::Mismatches& m) -> std::string {
    const long long i = static_cast<long long>(m.first), t = i % threads;
    if (m.first_unwritten)
      return fmt::format(
          "No thread updated y[{}]. With {} threads in the grid it belongs to thread {} (block "
          "{}, threadIdx.x {}), on that thread's pass {} through the array: each thread must go "
          "on, {} elements at a time, until its index reaches n",
          i, threads, t, t / grid_stride::BLOCK_THREADS, t % grid_stride::BLOCK_THREADS,
          i / threads + 1, threads);
    const float got = std::strtof(m.got.c_str(), nullptr);
    const std::vector<float>&x = xs.host(), &y = ys.host();
    const float ax = a * x[i];  // exact: a is a power of two
    float v = y[i];
    for (long long k = 1; k <= (1 << 20); ++k) {
      v = ax + v;
      if (k >= 2 && v == got)
        return fmt::format(
            "y[{}] = y + {} * a * x: it was updated more than once ({} times). Each element "
            "belongs to exactly one thread: step by the whole grid, blockDim.x * gridDim.x. With "
            "a step of blockDim.x alone, block b walks from its own start to the end of the "
            "array, over the elements of every block after it",
            i, k, k);
    }
    return "";
  };
}

// A case's grid, its scale a (from the seed) and its arrays x and y (drawn).
struct Saxpy {
  int blocks;
  float a;
  harness::Input<float> x;
  harness::InOut<float> y;
};

Saxpy saxpy_arrays(harness::Case& c, const Shape& s) {
  const int blocks = blocks_for(s.grid, s.n);
  const float a = scale_for(c.seed());
  c.describe("saxpy", fmt::format("n = {} with {} x 256 threads, a = {}",
                                  course::group_thousands(s.n), grid_words(s.grid, blocks), a));
  const auto x = c.input<float>("x", static_cast<std::size_t>(s.n));
  return {blocks, a, x, c.in_out<float>("y", static_cast<std::size_t>(s.n))};
}

// The device reference (harness::Reference): a * x[i] + y[i] from the draws of x and y. a is a
// power of two, so a * x[i] is exact and a fused multiply-add rounds as the host's separate
// multiply and add do.
struct SaxpyOfDraws {
  float a;
  std::uint64_t x_seed, y_seed;
  __device__ float initial(std::size_t i) const {
    return harness::RandomValues<float>{}(y_seed, i);
  }
  __device__ float operator()(std::size_t i) const {
    return __fadd_rn(__fmul_rn(a, harness::RandomValues<float>{}(x_seed, i)), initial(i));
  }
};

// y compared with a * x + y as drawn: on the host for small shapes, on the device in the speed
// test and in the large cases (Case::keep_on_device()).
void expect_saxpy(harness::Case& c, float a, const harness::Input<float>& x,
                  const harness::InOut<float>& y, harness::Advice advice) {
  const auto host = [&] {
    const std::vector<float>& hx = x.host();
    const std::vector<float>& hy = y.host();
    std::vector<float> expected(hx.size());
    harness::parallel_for(expected.size(), [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) expected[i] = a * hx[i] + hy[i];
    });
    return expected;
  };
  c.expect_exact(y, harness::reference(host, SaxpyOfDraws{a, x.seed(), y.seed()}), harness::flat(),
                 advice);
}

void saxpy_case(harness::Case& c, const Shape& s) {
  const auto [blocks, a, x, y] = saxpy_arrays(c, s);
  c.launch(grid_stride::launch_saxpy, s.n, a, x, y, blocks);
  c.ceiling(grid_stride::launch_copy_grid_stride, s.n, x, y, blocks);
  c.bytes(12.0 * static_cast<double>(s.n));  // read x[i] and y[i], write y[i]
  const long long threads = static_cast<long long>(blocks) * grid_stride::BLOCK_THREADS;
  expect_saxpy(c, a, x, y, advice(threads, a, x, y));
}

// ============================== large ==============================

std::string int_note(long long n) {
  return fmt::format(
      "n = {} is past 2^31 - 1 = 2,147,483,647, the largest int. This step differs from "
      "grid_stride only in n: if grid_stride passes, look for an index, a stride or a product "
      "computed in 32 bits. Past the largest int it wraps to a negative value, and the loop then "
      "reads and writes far before the arrays (an illegal address), or never ends (every int is "
      "below n). Hold the index and the stride in long long, and widen before you multiply: "
      "static_cast<long long>(blockIdx.x) * blockDim.x",
      course::group_thousands(n));
}

// 2^31 + 17 elements: x and y stay on the device (drawn there, and compared there with the
// reference computed from their draws), so the case takes about a second instead of the host's
// 30 s over 8 GiB arrays.
void large_case(harness::Case& c, const Shape& s) {
  const std::size_t array = static_cast<std::size_t>(s.n) * sizeof(float);
  harness::require_memory(2 * array + (512ull << 20), 1ull << 30,
                          fmt::format("the large case (x and y on the device, {} floats each)",
                                      course::group_thousands(s.n)));
  c.keep_on_device();
  const auto [blocks, a, x, y] = saxpy_arrays(c, s);
  try {
    c.launch(grid_stride::launch_saxpy, s.n, a, x, y, blocks);
  } catch (const harness::CudaError&) {
    c.fail(int_note(s.n));  // then the error itself, added by the harness
    throw;
  }
  expect_saxpy(c, a, x, y, {});
  if (!c.failures().empty()) c.fail(int_note(s.n));
}

}  // namespace

COURSE_TESTS {
  harness::correctness(Step::grid_stride, grid_stride_cases(), case_name, saxpy_case);
  harness::speed(Step::grid_stride, timing_shape, saxpy_case);
  harness::correctness(Step::large, kLargeCases, case_name, large_case);
}
