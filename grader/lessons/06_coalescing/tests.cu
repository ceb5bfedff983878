// Hidden tests of lesson 06_coalescing: for each step, "<step>/Correct.<case>" on many shapes and
// "<step>/Speed.timed" against the step's own copy rung (named in the manifest).
//
// Comparisons. A product of two floats has one rounding whatever the compiler does, so
// scale_channels and scale_matrix are compared bit for bit with the host's float multiply. The
// particle update x + vx * dt may be compiled as one fused multiply-add (one rounding) or as a
// multiply and an add (two roundings); both are right. It is compared with the exact value
// (computed in double) within 1e-6 * (|x| + |vx * dt|), about 8 units in the last place of the
// larger term, far below any real mistake (a missing or doubled update, a wrong field).
#include <cmath>
#include <utility>
#include <vector>

#include "coalescing.cuh"
#include "harness/lesson.hpp"
#include "steps/06_coalescing.hpp"

namespace {

using coalescing::Step;

// Random factors (gains, scale, dt): never 0, so that a kernel that writes zeros cannot match. A
// draw (harness/draw.hpp): the course's random floats with 0 replaced by 0.5.
struct NonzeroFloats {
  HARNESS_HD float operator()(std::uint64_t seed, std::size_t i) const {
    const float x = harness::RandomValues<float>{}(seed, i);
    return x == 0.0f ? 0.5f : x;
  }
};

// Device references (harness::Reference): each element from the inputs' draws, as the host
// references compute it; a float product is rounded once (__fmul_rn: never contracted).
struct ScaledChannels {
  std::uint64_t in_seed, gain_seed;
  std::size_t n;
  __device__ float operator()(std::size_t k) const {
    return __fmul_rn(harness::RandomValues<float>{}(in_seed, k), NonzeroFloats{}(gain_seed, k / n));
  }
};
struct Scaled {
  std::uint64_t in_seed;
  float scale;
  __device__ float operator()(std::size_t k) const {
    return __fmul_rn(harness::RandomValues<float>{}(in_seed, k), scale);
  }
};

// ============================== by_channel ==============================

struct ChannelShape {
  int channels, n;
};

// One channel and one element; one short of and one past a warp (32) and a block (256); primes;
// 3 channels (RGB-like); a multi-block grid per channel; many channels; the largest channel count
// the grid allows (65535 = the largest gridDim.y).
const std::vector<ChannelShape> kChannelShapes = {
    {1, 1},   {1, 777},  {3, 1},    {3, 31},    {3, 33},    {3, 255},    {3, 257},   {2, 511},
    {5, 513}, {7, 1000}, {61, 997}, {1000, 97}, {64, 4096}, {1, 100003}, {3, 65537}, {65535, 2}};

// 64 channels holding as many floats as the square timing matrix (in + out >= 4x the L2).
ChannelShape channels_timing() {
  const long long side = harness::timing_side(2, sizeof(float));
  return {64, static_cast<int>(side * side / 64)};
}

void by_channel(harness::Case& c, const ChannelShape& s) {
  c.describe("scale_channels", fmt::format("{} channels x {} elements (element i of channel c at "
                                           "out[c * n + i])",
                                           s.channels, s.n));
  const std::size_t total = static_cast<std::size_t>(s.channels) * s.n;
  const auto in = c.input<float>("in", total);
  const auto gain = c.input<float>("gain", static_cast<std::size_t>(s.channels), NonzeroFloats{});
  const auto out = c.output<float>("out", total);
  c.launch(coalescing::launch_scale_channels, in, gain, out, s.channels, s.n);
  c.ceiling(coalescing::launch_copy_channels, in, out, s.channels, s.n);
  c.bytes(2.0 * static_cast<double>(total) * sizeof(float));  // gains: 256 B, not counted
  const auto host = [&] {
    std::vector<float> expected(total);
    for (std::size_t k = 0; k < total; ++k) expected[k] = in.host()[k] * gain.host()[k / s.n];
    return expected;
  };
  c.expect_exact(out,
                 harness::reference(
                     host, ScaledChannels{in.seed(), gain.seed(), static_cast<std::size_t>(s.n)}),
                 [n = s.n](const std::string& name, std::size_t k) {
                   return fmt::format("{}[{}] (channel {}, element {})", name, k, k / n, k % n);
                 });
}

// ============================== row_major_2d ==============================

struct MatrixShape {
  int rows, cols;
};

// 1x1; 1xN and Nx1 (including a grid of 12501 blocks in y); one short of and one past a warp's
// 32 columns, a block's 8 rows and 256 columns; primes; non-square both ways; multi-block grids.
const std::vector<MatrixShape> kMatrixShapes = {
    {1, 1},   {1, 777},     {777, 1},     {7, 9},      {8, 32},    {9, 31},
    {31, 33}, {33, 31},     {17, 255},    {257, 9},    {63, 65},   {97, 61},
    {61, 97}, {1023, 1025}, {2048, 1536}, {1, 100003}, {100003, 1}};

// Square, rows a multiple of 32 floats: 8192 x 8192 on a GPU with up to 128 MiB of L2.
MatrixShape matrix_timing() {
  const int side = static_cast<int>(harness::timing_side(2, sizeof(float)));
  return {side, side};
}

void row_major_2d(harness::Case& c, const MatrixShape& s) {
  const float scale = harness::draw_values<float>(1, c.seed() + 1, NonzeroFloats{})[0];
  c.describe("scale_matrix",
             fmt::format("{}x{} (rows x cols, row-major), s = {}", s.rows, s.cols, scale));
  const std::size_t n = static_cast<std::size_t>(s.rows) * s.cols;
  const auto in = c.input<float>("in", n);
  const auto out = c.output<float>("out", n);
  c.launch(coalescing::launch_scale_matrix, in, out, s.rows, s.cols, scale);
  c.ceiling(coalescing::launch_copy_matrix, in, out, s.rows, s.cols);
  c.bytes(2.0 * static_cast<double>(n) * sizeof(float));
  const auto host = [&] {
    std::vector<float> expected(n);
    for (std::size_t k = 0; k < n; ++k) expected[k] = in.host()[k] * scale;
    return expected;
  };
  c.expect_exact(out, harness::reference(host, Scaled{in.seed(), scale}),
                 harness::row_major(s.cols));
}

// ============================== soa_update ==============================

// One particle; one short of, at and one past a warp and a block; primes; multi-block grids.
const std::vector<int> kParticleCounts = {1,   31,   32,   33,    255,    256,
                                          257, 1000, 4099, 65537, 100003, 1048577};

// Six arrays of side^2 floats each (2^26 particles, 1.5 GiB, at side 8192). The update runs in
// place many times while timed (positions drift, and the copy rung scrambles their bits): timing
// does not care, and the second verification starts again from fresh arrays.
int particles_timing() {
  const long long n = harness::timing_elements(6, sizeof(float));
  return static_cast<int>(std::min<long long>(n, (1LL << 31) - 1));
}

// The device reference of one coordinate: p + v * dt in double, each operation rounded once
// (__dmul_rn, __dadd_rn: never contracted), and its tolerance, as the host computes them.
struct Moved {
  std::uint64_t pos_seed, vel_seed;
  float dt;
  __device__ float initial(std::size_t i) const {
    return harness::RandomValues<float>{}(pos_seed, i);
  }
  __device__ harness::Near operator()(std::size_t i) const {
    const float p = initial(i), v = harness::RandomValues<float>{}(vel_seed, i);
    const double step = __dmul_rn(static_cast<double>(v), static_cast<double>(dt));
    return {__dadd_rn(static_cast<double>(p), step),
            __dadd_rn(__dmul_rn(1e-6, __dadd_rn(fabs(static_cast<double>(p)), fabs(step))), 1e-30)};
  }
};

void soa_update(harness::Case& c, const int& n) {
  const float dt = 0.001f * static_cast<float>(1 + c.seed() % 100);  // never 0
  c.describe("update_soa", fmt::format("{} particles, dt = {}", n, dt));
  const auto x = c.in_out<float>("x", static_cast<std::size_t>(n));
  const auto y = c.in_out<float>("y", static_cast<std::size_t>(n));
  const auto z = c.in_out<float>("z", static_cast<std::size_t>(n));
  const auto vx = c.input<float>("vx", n), vy = c.input<float>("vy", n),
             vz = c.input<float>("vz", n);
  const coalescing::Particles p{x.data(), y.data(), z.data(), vx.data(), vy.data(), vz.data()};
  c.launch(coalescing::launch_update_soa, p, dt, n);
  c.ceiling(coalescing::launch_copy_particles_soa, p, n);
  c.bytes(9.0 * sizeof(float) * n);  // read x, y, z, vx, vy, vz; write x, y, z
  const struct {
    const harness::InOut<float>& pos;
    const harness::Input<float>& vel;
  } fields[] = {{x, vx}, {y, vy}, {z, vz}};
  for (const auto& f : fields) {
    const auto host = [&] {
      std::pair<std::vector<double>, std::vector<double>> r{std::vector<double>(n),
                                                            std::vector<double>(n)};
      std::vector<double>& exact = r.first;
      std::vector<double>& tolerance = r.second;
      harness::parallel_for(static_cast<std::size_t>(n), [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
          const double step = static_cast<double>(f.vel.host()[i]) * dt;
          exact[i] = static_cast<double>(f.pos.host()[i]) + step;
          tolerance[i] = 1e-6 * (std::fabs(f.pos.host()[i]) + std::fabs(step)) + 1e-30;
        }
      });
      return r;
    };
    // "x[5] should be x + vx * dt = 1.5 + 2 * 0.05"
    const auto advice = [&](const harness::Mismatches& m) {
      return fmt::format("{}[{}] should be {} + {} * dt = {} + {} * {}", f.pos.name(), m.first,
                         f.pos.name(), "v" + f.pos.name(), f.pos.host()[m.first],
                         f.vel.host()[m.first], dt);
    };
    c.expect_near(f.pos, harness::reference(host, Moved{f.pos.seed(), f.vel.seed(), dt}),
                  harness::flat(), advice);
  }
}

// ============================== vector_copy ==============================

// Every tail length (n % 4 = 0..3) at 1-9 floats; around a warp's 32 groups (128 floats) and a
// block's 256 groups (1024 floats); primes; a multi-block grid with each tail length. A float4
// read past n (into the input's guard) cannot show in the output: memcheck sees it.
const std::vector<int> kCopyCounts = {1,     2,     3,      4,       5,       6,       7,
                                      8,     9,     127,    128,     129,     130,     131,
                                      1023,  1024,  1025,   1026,    1027,    4099,    8191,
                                      65537, 65540, 100003, 1048576, 1048577, 1048578, 1048579};

// As many floats as the square timing matrix, minus one so that the tail (3 floats) is timed too.
int copy_timing() {
  return static_cast<int>(harness::timing_elements(2, sizeof(float)) - 1);
}

void vector_copy(harness::Case& c, const int& n) {
  c.describe("copy_float4", fmt::format("n = {} floats (n % 4 = {})", n, n % 4));
  const auto in = c.input<float>("in", n);
  const auto out = c.output<float>("out", n);
  c.launch(coalescing::launch_copy_float4, in, out, n);
  c.ceiling(coalescing::launch_copy_float4_reference, in, out, n);
  c.bytes(2.0 * static_cast<double>(n) * sizeof(float));
  const int tail = n % 4, first_tail = n - tail;
  c.expect_exact(
      out, harness::reference([&] { return in.host(); }, harness::DrawnElement<float>{in.seed()}),
      harness::flat(), [=](const harness::Mismatches& m) {
        if (tail == 0 || m.first < static_cast<std::size_t>(first_tail)) return std::string();
        return fmt::format(
            "out[{}] .. out[{}] are the tail: the n % 4 = {} floats after the last whole float4, "
            "which one thread must copy one by one",
            first_tail, n - 1, tail);
      });
}

}  // namespace

COURSE_TESTS {
  harness::correctness(
      Step::by_channel, kChannelShapes,
      [](const ChannelShape& s) { return harness::shape_name(s.channels, s.n); }, by_channel);
  harness::speed(Step::by_channel, channels_timing, by_channel);

  harness::correctness(
      Step::row_major_2d, kMatrixShapes,
      [](const MatrixShape& s) { return harness::shape_name(s.rows, s.cols); }, row_major_2d);
  harness::speed(Step::row_major_2d, matrix_timing, row_major_2d);

  harness::correctness(Step::soa_update, kParticleCounts, harness::name_n, soa_update);
  harness::speed(Step::soa_update, particles_timing, soa_update);

  harness::correctness(Step::vector_copy, kCopyCounts, harness::name_n, vector_copy);
  harness::speed(Step::vector_copy, copy_timing, vector_copy);
}
