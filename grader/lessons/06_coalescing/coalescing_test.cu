// Hidden tests of lesson 06_coalescing. Test names start with the step they grade:
//   by_channel/ChannelsCorrect.matches_reference/<channels>x<n>    exact result on many shapes
//   by_channel/ChannelsSpeed.meets_gate/timed                       against copy_channels
//   row_major_2d/MatrixCorrect.matches_reference/<rows>x<cols>      exact result on many shapes
//   row_major_2d/MatrixSpeed.meets_gate/timed                       against copy_matrix
//   soa_update/ParticlesCorrect.matches_reference/n_<n>             tolerance (see below)
//   soa_update/ParticlesSpeed.meets_gate/timed                      against copy_particles_soa
//   vector_copy/Float4Correct.matches_reference/n_<n>               exact copy, tails of 0-3
//   vector_copy/Float4Speed.meets_gate/timed                        against copy_float4_reference
//
// Comparisons. A product of two floats has one rounding whatever the compiler does, so
// scale_channels and scale_matrix are compared bit for bit with the host's float multiply. The
// particle update x + vx * dt may be compiled as one fused multiply-add (one rounding) or as a
// multiply and an add (two roundings); both are right. It is compared with the exact value
// (computed in double) within 1e-6 * (|x| + |vx * dt|), about 8 units in the last place of the
// larger term, far below any real mistake (a missing or doubled update, a wrong field).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "coalescing.cuh"
#include "harness/buffer.hpp"
#include "harness/cuda_check.hpp"
#include "harness/data.hpp"
#include "harness/record.hpp"
#include "harness/speed.hpp"

namespace {

using coalescing::Step;

constexpr const char* kLesson = "06_coalescing";

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Inputs differ per test and per array, so a kernel cannot pass by matching one pattern.
std::uint64_t seed_for(std::uint64_t step_tag, long long a, long long b) {
  return harness::seed() * 1000003ull + step_tag * 104729ull +
         static_cast<std::uint64_t>(a) * 7919u + static_cast<std::uint64_t>(b);
}

// Random factors (gains, scale): the same mix of values as the data, but never 0, so that a
// kernel that writes zeros cannot match.
std::vector<float> nonzero_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> v = harness::random_floats(n, seed);
  for (float& x : v)
    if (x == 0.0f) x = 0.5f;
  return v;
}

// Guard elements catch writes past the end of an array (and make reads past an input read NaN).
// Under compute-sanitizer (quick mode) there are none, so memcheck sees the exact allocation.
std::size_t guard_for(std::size_t n) {
  return harness::quick() ? 0 : std::max<std::size_t>(4096, n);
}

// ============================== by_channel ==============================

struct ChannelShape {
  int channels, n;
};

// One channel and one element; one short of and one past a warp (32) and a block (256); primes;
// 3 channels (RGB-like); a multi-block grid per channel; many channels; the largest channel count
// the grid allows (65535, blockIdx.y's limit).
const ChannelShape kChannelShapes[] = {
    {1, 1},   {1, 777},  {3, 1},    {3, 31},    {3, 33},    {3, 255},    {3, 257},   {2, 511},
    {5, 513}, {7, 1000}, {61, 997}, {1000, 97}, {64, 4096}, {1, 100003}, {3, 65537}, {65535, 2}};

std::string channel_case_name(const ::testing::TestParamInfo<ChannelShape>& info) {
  return harness::shape_name(info.param.channels, info.param.n);
}

std::vector<float> host_scale_channels(const std::vector<float>& in, const std::vector<float>& gain,
                                       int channels, int n) {
  std::vector<float> out(in.size());
  for (int c = 0; c < channels; ++c)
    for (int i = 0; i < n; ++i) {
      const std::size_t k = static_cast<std::size_t>(c) * n + i;
      out[k] = in[k] * gain[c];
    }
  return out;
}

std::string channels_layout(int channels, int n) {
  return fmt::format(
      "out is {} channels x {} elements, element i of channel c at out[c * n + i] "
      "(row = channel, col = element)",
      channels, n);
}

class ChannelsCorrect : public ::testing::TestWithParam<ChannelShape> {};

TEST_P(ChannelsCorrect, matches_reference) {
  const auto [channels, n] = GetParam();
  const std::size_t total = static_cast<std::size_t>(channels) * n;
  if (harness::quick() && total > (1u << 16)) GTEST_SKIP() << "quick mode: large shape skipped";
  const std::string what = harness::shape_name(channels, n);
  const std::uint64_t seed = seed_for(1, channels, n);
  harness::record("shape", what);
  harness::record("seed", static_cast<double>(seed));

  const std::vector<float> in = harness::random_floats(total, seed);
  const std::vector<float> gain = nonzero_floats(channels, seed + 1);
  harness::DeviceBuffer<float> d_in(total, guard_for(total)), d_gain(channels, guard_for(channels)),
      d_out(total, guard_for(total));
  d_in.poison();
  d_in.upload(in);
  d_gain.poison();
  d_gain.upload(gain);
  d_out.poison();
  const std::string where = "scale_channels on " + what + " (channels x n)";
  harness::check(
      coalescing::launch_scale_channels(d_in.data(), d_gain.data(), d_out.data(), channels, n),
      "launch " + where);
  harness::wait(0, where);

  const harness::Comparison cmp = harness::compare_exact(host_scale_channels(in, gain, channels, n),
                                                         d_out.download(), harness::kPoisonByte);
  if (!cmp.ok())
    ADD_FAILURE() << where << ", seed " << seed << ": " << channels_layout(channels, n) << "; "
                  << harness::describe(cmp, n);
  if (const std::size_t outside = d_out.guard_damage(); outside > 0)
    ADD_FAILURE() << where << ": wrote " << outside
                  << " elements outside the output, past its last element. Check i < n before "
                     "every store";
  if (!same_bits(d_in.download(), in))
    ADD_FAILURE() << where << ": the input changed. scale_channels must only read `in`";
  if (!same_bits(d_gain.download(), gain))
    ADD_FAILURE() << where << ": the gains changed. scale_channels must only read `gain`";
}

INSTANTIATE_TEST_SUITE_P(by_channel, ChannelsCorrect, ::testing::ValuesIn(kChannelShapes),
                         channel_case_name);

std::string timed(const ::testing::TestParamInfo<Step>&) {
  return "timed";
}

class ChannelsSpeed : public ::testing::TestWithParam<Step> {};

TEST_P(ChannelsSpeed, meets_gate) {
  if (harness::quick()) GTEST_SKIP() << "quick mode: not timed";
  // 64 channels holding as many floats as an 8192 x 8192 matrix (n = 2^20 per channel), grown
  // with the L2 exactly like lesson 07's timing matrix: in + out are at least 4x the L2.
  constexpr int channels = 64;
  const long long side = harness::timing_side(2, sizeof(float));
  const int n = static_cast<int>(side * side / channels);
  const std::size_t total = static_cast<std::size_t>(channels) * n;
  harness::DeviceBuffer<float> in(total), gain(channels), out(total);

  harness::SpeedCheck c;
  c.lesson = kLesson;
  c.step = coalescing::step_name(Step::by_channel);
  c.ceiling_kernel = "copy_channels";
  c.shape = harness::shape_name(channels, n) + " floats";
  c.bytes = 2.0 * static_cast<double>(total) * sizeof(float);  // gains: 256 B, not counted
  c.ceiling = [&](cudaStream_t s) {
    return coalescing::launch_copy_channels(in.data(), out.data(), channels, n, s);
  };
  c.student = [&](cudaStream_t s) {
    return coalescing::launch_scale_channels(in.data(), gain.data(), out.data(), channels, n, s);
  };
  c.verify = [&](std::uint64_t seed) -> std::string {
    const std::vector<float> h_in = harness::random_floats(total, seed);
    const std::vector<float> h_gain = nonzero_floats(channels, seed + 1);
    in.upload(h_in);
    gain.upload(h_gain);
    out.poison();
    harness::check(
        coalescing::launch_scale_channels(in.data(), gain.data(), out.data(), channels, n),
        "launch scale_channels");
    harness::wait(0, "scale_channels on " + c.shape);
    const harness::Comparison cmp = harness::compare_exact(
        host_scale_channels(h_in, h_gain, channels, n), out.download(), harness::kPoisonByte);
    return cmp.ok() ? "" : harness::describe(cmp, n);
  };
  c.memcpy_src = in.data();
  c.memcpy_dst = out.data();
  c.memcpy_bytes = total * sizeof(float);
  harness::run_speed_check(c);
}

INSTANTIATE_TEST_SUITE_P(by_channel, ChannelsSpeed, ::testing::Values(Step::by_channel), timed);

// ============================== row_major_2d ==============================

struct MatrixShape {
  int rows, cols;
};

// 1x1; 1xN and Nx1 (including a grid of 12501 blocks in y); one short of and one past a warp's
// 32 columns, a block's 8 rows and 256 columns; primes; non-square both ways; multi-block grids.
const MatrixShape kMatrixShapes[] = {{1, 1},      {1, 777},   {777, 1}, {7, 9},       {8, 32},
                                     {9, 31},     {31, 33},   {33, 31}, {17, 255},    {257, 9},
                                     {63, 65},    {97, 61},   {61, 97}, {1023, 1025}, {2048, 1536},
                                     {1, 100003}, {100003, 1}};

std::string matrix_case_name(const ::testing::TestParamInfo<MatrixShape>& info) {
  return harness::shape_name(info.param.rows, info.param.cols);
}

std::vector<float> host_scale(const std::vector<float>& in, float s) {
  std::vector<float> out(in.size());
  for (std::size_t k = 0; k < in.size(); ++k) out[k] = in[k] * s;
  return out;
}

class MatrixCorrect : public ::testing::TestWithParam<MatrixShape> {};

TEST_P(MatrixCorrect, matches_reference) {
  const auto [rows, cols] = GetParam();
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  if (harness::quick() && n > (1u << 16)) GTEST_SKIP() << "quick mode: large shape skipped";
  const std::string what = harness::shape_name(rows, cols);
  const std::uint64_t seed = seed_for(2, rows, cols);
  harness::record("shape", what);
  harness::record("seed", static_cast<double>(seed));

  const std::vector<float> in = harness::random_floats(n, seed);
  const float s = nonzero_floats(1, seed + 1)[0];
  harness::DeviceBuffer<float> d_in(n, guard_for(n)), d_out(n, guard_for(n));
  d_in.poison();
  d_in.upload(in);
  d_out.poison();
  const std::string where = fmt::format("scale_matrix on {} (rows x cols), s = {}", what, s);
  harness::check(coalescing::launch_scale_matrix(d_in.data(), d_out.data(), rows, cols, s),
                 "launch " + where);
  harness::wait(0, where);

  const harness::Comparison cmp =
      harness::compare_exact(host_scale(in, s), d_out.download(), harness::kPoisonByte);
  if (!cmp.ok())
    ADD_FAILURE() << where << ", seed " << seed << ": out is " << rows << "x" << cols
                  << ", row-major; " << harness::describe(cmp, cols);
  if (const std::size_t outside = d_out.guard_damage(); outside > 0)
    ADD_FAILURE() << where << ": wrote " << outside
                  << " elements outside the output, past its last element. Check r < rows and "
                     "c < cols before every store";
  if (!same_bits(d_in.download(), in))
    ADD_FAILURE() << where << ": the input changed. scale_matrix must only read `in`";
}

INSTANTIATE_TEST_SUITE_P(row_major_2d, MatrixCorrect, ::testing::ValuesIn(kMatrixShapes),
                         matrix_case_name);

class MatrixSpeed : public ::testing::TestWithParam<Step> {};

TEST_P(MatrixSpeed, meets_gate) {
  if (harness::quick()) GTEST_SKIP() << "quick mode: not timed";
  // Square, rows a multiple of 32 floats: 8192 x 8192 on a GPU with up to 128 MiB of L2.
  const int side = static_cast<int>(harness::timing_side(2, sizeof(float)));
  const std::size_t n = static_cast<std::size_t>(side) * side;
  harness::DeviceBuffer<float> in(n), out(n);
  float s = 0;  // set by verify, reused while timed

  harness::SpeedCheck c;
  c.lesson = kLesson;
  c.step = coalescing::step_name(Step::row_major_2d);
  c.ceiling_kernel = "copy_matrix";
  c.shape = harness::shape_name(side, side) + " floats";
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(float);
  c.ceiling = [&](cudaStream_t st) {
    return coalescing::launch_copy_matrix(in.data(), out.data(), side, side, st);
  };
  c.student = [&](cudaStream_t st) {
    return coalescing::launch_scale_matrix(in.data(), out.data(), side, side, s, st);
  };
  c.verify = [&](std::uint64_t seed) -> std::string {
    const std::vector<float> h_in = harness::random_floats(n, seed);
    s = nonzero_floats(1, seed + 1)[0];
    in.upload(h_in);
    out.poison();
    harness::check(coalescing::launch_scale_matrix(in.data(), out.data(), side, side, s),
                   "launch scale_matrix");
    harness::wait(0, "scale_matrix on " + c.shape);
    const harness::Comparison cmp =
        harness::compare_exact(host_scale(h_in, s), out.download(), harness::kPoisonByte);
    return cmp.ok() ? "" : harness::describe(cmp, side);
  };
  c.memcpy_src = in.data();
  c.memcpy_dst = out.data();
  c.memcpy_bytes = n * sizeof(float);
  harness::run_speed_check(c);
}

INSTANTIATE_TEST_SUITE_P(row_major_2d, MatrixSpeed, ::testing::Values(Step::row_major_2d), timed);

// ============================== soa_update ==============================

// One particle; one short of, at and one past a warp and a block; primes; multi-block grids.
const int kParticleCounts[] = {1, 31, 32, 33, 255, 256, 257, 1000, 4099, 65537, 100003, 1048577};

std::string particles_case_name(const ::testing::TestParamInfo<int>& info) {
  return "n_" + std::to_string(info.param);
}

// Host copy of a particle system. Velocities use the same mix as every input (large, tiny, 0,
// -1); dt is a plain time step in [0.001, 0.1], never 0, so an update that is skipped shows.
struct HostParticles {
  std::vector<float> x, y, z, vx, vy, vz;
  float dt = 0;
};

HostParticles make_particles(std::size_t n, std::uint64_t seed) {
  HostParticles h;
  h.x = harness::random_floats(n, seed);
  h.y = harness::random_floats(n, seed + 1);
  h.z = harness::random_floats(n, seed + 2);
  h.vx = harness::random_floats(n, seed + 3);
  h.vy = harness::random_floats(n, seed + 4);
  h.vz = harness::random_floats(n, seed + 5);
  h.dt = 0.001f * static_cast<float>(1 + seed % 100);
  return h;
}

// The six device arrays, with guards after each.
struct DeviceParticles {
  harness::DeviceBuffer<float> x, y, z, vx, vy, vz;
  explicit DeviceParticles(std::size_t n, std::size_t guard)
      : x(n, guard), y(n, guard), z(n, guard), vx(n, guard), vy(n, guard), vz(n, guard) {}
  void upload(const HostParticles& h) {
    for (auto [d, v] : {std::pair{&x, &h.x}, std::pair{&y, &h.y}, std::pair{&z, &h.z},
                        std::pair{&vx, &h.vx}, std::pair{&vy, &h.vy}, std::pair{&vz, &h.vz}}) {
      d->poison();
      d->upload(*v);
    }
  }
  coalescing::Particles view() {
    return {x.data(), y.data(), z.data(), vx.data(), vy.data(), vz.data()};
  }
};

// Compares one updated position array with pos0 + vel * dt (see the tolerance at the top).
// Elements that still hold their old value although they should have moved count as
// `unwritten` (never updated).
harness::Comparison compare_update(const std::vector<float>& pos0, const std::vector<float>& vel,
                                   float dt, const std::vector<float>& got) {
  harness::Comparison c;
  c.total = pos0.size();
  for (std::size_t i = 0; i < pos0.size(); ++i) {
    const double step = static_cast<double>(vel[i]) * dt;
    const double exact = static_cast<double>(pos0[i]) + step;
    const double tol = 1e-6 * (std::fabs(pos0[i]) + std::fabs(step)) + 1e-30;
    if (std::isfinite(got[i]) && std::fabs(got[i] - exact) <= tol) continue;
    const bool unchanged = std::memcmp(&got[i], &pos0[i], sizeof(float)) == 0;
    if (c.wrong == 0) {
      c.first = i;
      c.expected = static_cast<float>(exact);
      c.got = got[i];
      c.first_unwritten = unchanged;
    }
    ++c.wrong;
    c.unwritten += unchanged;
  }
  return c;
}

// "x: 1000 of 1000 positions wrong (1000 never updated); first mismatch at x[0]: expected
// x + vx * dt = 1.5 + 2 * 0.05 = 1.6, got 1.5 (never updated)"
std::string describe_update(const harness::Comparison& c, const char* pos, const char* vel,
                            const std::vector<float>& pos0, const std::vector<float>& v, float dt) {
  const std::size_t i = c.first;
  return fmt::format(
      "{}: {} of {} positions wrong ({} never updated); first mismatch at {}[{}]: expected "
      "{} + {} * dt = {} + {} * {} = {}, got {}{}",
      pos, c.wrong, c.total, c.unwritten, pos, i, pos, vel, pos0[i], v[i], dt, c.expected, c.got,
      c.first_unwritten ? " (never updated)" : "");
}

// Checks x, y and z of `d` against `h` (the state before the update): one message per wrong
// array, none when all three are right.
std::vector<std::string> check_positions(const HostParticles& h, DeviceParticles& d) {
  std::vector<std::string> problems;
  const struct {
    const char *pos, *vel;
    const std::vector<float>*p0, *v;
    harness::DeviceBuffer<float>* got;
  } fields[] = {{"x", "vx", &h.x, &h.vx, &d.x},
                {"y", "vy", &h.y, &h.vy, &d.y},
                {"z", "vz", &h.z, &h.vz, &d.z}};
  for (const auto& f : fields) {
    const harness::Comparison cmp = compare_update(*f.p0, *f.v, h.dt, f.got->download());
    if (!cmp.ok()) problems.push_back(describe_update(cmp, f.pos, f.vel, *f.p0, *f.v, h.dt));
  }
  return problems;
}

class ParticlesCorrect : public ::testing::TestWithParam<int> {};

TEST_P(ParticlesCorrect, matches_reference) {
  const int n = GetParam();
  if (harness::quick() && n > (1 << 16)) GTEST_SKIP() << "quick mode: large shape skipped";
  const std::string what = fmt::format("{} particles", n);
  const std::uint64_t seed = seed_for(3, n, 0);
  harness::record("shape", what);
  harness::record("seed", static_cast<double>(seed));

  const HostParticles h = make_particles(n, seed);
  DeviceParticles d(n, guard_for(n));
  d.upload(h);
  const std::string where = fmt::format("update_soa on {}, dt = {}", what, h.dt);
  harness::check(coalescing::launch_update_soa(d.view(), h.dt, n), "launch " + where);
  harness::wait(0, where);

  for (const std::string& p : check_positions(h, d))
    ADD_FAILURE() << where << ", seed " << seed << ": " << p;
  for (auto [name, buf] : {std::pair{"x", &d.x}, std::pair{"y", &d.y}, std::pair{"z", &d.z}})
    if (const std::size_t outside = buf->guard_damage(); outside > 0)
      ADD_FAILURE() << where << ": wrote " << outside << " elements past the end of " << name
                    << ". Check i < n before touching memory";
  if (!same_bits(d.vx.download(), h.vx) || !same_bits(d.vy.download(), h.vy) ||
      !same_bits(d.vz.download(), h.vz))
    ADD_FAILURE() << where << ": the velocities changed. update_soa must only read vx, vy, vz";
}

INSTANTIATE_TEST_SUITE_P(soa_update, ParticlesCorrect, ::testing::ValuesIn(kParticleCounts),
                         particles_case_name);

class ParticlesSpeed : public ::testing::TestWithParam<Step> {};

TEST_P(ParticlesSpeed, meets_gate) {
  if (harness::quick()) GTEST_SKIP() << "quick mode: not timed";
  // Six arrays of side^2 floats each (2^26 particles, 1.5 GiB, at side 8192), at least 4x the
  // L2 by the same rule as every timing shape. The update runs in place many times while timed
  // (positions drift, and the copy rung scrambles their bits): timing does not care, and every
  // verify starts again from fresh arrays.
  const long long side = harness::timing_side(6, sizeof(float));
  ASSERT_LT(side * side, 1LL << 31) << "timing shape too large for int indices";
  const int n = static_cast<int>(side * side);
  DeviceParticles d(n, 0);
  float dt = 0;  // set by verify, reused while timed

  harness::SpeedCheck c;
  c.lesson = kLesson;
  c.step = coalescing::step_name(Step::soa_update);
  c.ceiling_kernel = "copy_particles_soa";
  c.shape = fmt::format("{} particles", n);
  c.bytes = 9.0 * sizeof(float) * n;  // read x, y, z, vx, vy, vz; write x, y, z
  c.ceiling = [&](cudaStream_t s) { return coalescing::launch_copy_particles_soa(d.view(), n, s); };
  c.student = [&](cudaStream_t s) { return coalescing::launch_update_soa(d.view(), dt, n, s); };
  c.verify = [&](std::uint64_t seed) -> std::string {
    const HostParticles h = make_particles(n, seed);
    dt = h.dt;
    d.upload(h);
    harness::check(coalescing::launch_update_soa(d.view(), dt, n), "launch update_soa");
    harness::wait(0, "update_soa on " + c.shape);
    const std::vector<std::string> problems = check_positions(h, d);
    return problems.empty() ? "" : problems.front();
  };
  // cudaMemcpy figure (context only): vx into x; verify re-uploads everything afterwards.
  c.memcpy_src = d.vx.data();
  c.memcpy_dst = d.x.data();
  c.memcpy_bytes = static_cast<std::size_t>(n) * sizeof(float);
  harness::run_speed_check(c);
}

INSTANTIATE_TEST_SUITE_P(soa_update, ParticlesSpeed, ::testing::Values(Step::soa_update), timed);

// ============================== vector_copy ==============================

// Every tail length (n % 4 = 0..3) at 1-9 floats; around a warp's 32 groups (128 floats) and a
// block's 256 groups (1024 floats); primes; a multi-block grid with each tail length. A float4
// read past n (of `in`'s guard) cannot show in the output: only --sanitize (memcheck) sees it.
const int kCopyCounts[] = {1,     2,     3,      4,       5,       6,       7,
                           8,     9,     127,    128,     129,     130,     131,
                           1023,  1024,  1025,   1026,    1027,    4099,    8191,
                           65537, 65540, 100003, 1048576, 1048577, 1048578, 1048579};

std::string copy_case_name(const ::testing::TestParamInfo<int>& info) {
  return "n_" + std::to_string(info.param);
}

// "3 of 1027 floats wrong (3 never written); first mismatch at out[1024]: expected 0.5, got NaN
// (never written). out[1024] .. out[1026] are the tail: the n % 4 = 3 floats after the last whole
// float4, which one thread must copy one by one"
std::string describe_copy(const harness::Comparison& c, int n) {
  std::string s = fmt::format(
      "{} of {} floats wrong ({} never written); first mismatch at out[{}]: expected {}, got {}",
      c.wrong, c.total, c.unwritten, c.first, c.expected,
      c.first_unwritten ? std::string("NaN (never written)") : fmt::format("{}", c.got));
  const int tail = n % 4, first_tail = n - tail;
  if (tail > 0 && c.first >= static_cast<std::size_t>(first_tail))
    s += fmt::format(
        ". out[{}] .. out[{}] are the tail: the n % 4 = {} floats after the last whole float4, "
        "which one thread must copy one by one",
        first_tail, n - 1, tail);
  return s;
}

class Float4Correct : public ::testing::TestWithParam<int> {};

TEST_P(Float4Correct, matches_reference) {
  const int n = GetParam();
  if (harness::quick() && n > (1 << 16)) GTEST_SKIP() << "quick mode: large shape skipped";
  const std::string what = fmt::format("n = {} floats (n % 4 = {})", n, n % 4);
  const std::uint64_t seed = seed_for(4, n, 0);
  harness::record("shape", what);
  harness::record("seed", static_cast<double>(seed));

  const std::vector<float> in = harness::random_floats(n, seed);
  harness::DeviceBuffer<float> d_in(n, guard_for(n)), d_out(n, guard_for(n));
  d_in.poison();
  d_in.upload(in);
  d_out.poison();
  const std::string where = "copy_float4 on " + what;
  harness::check(coalescing::launch_copy_float4(d_in.data(), d_out.data(), n), "launch " + where);
  harness::wait(0, where);

  const harness::Comparison cmp =
      harness::compare_exact(in, d_out.download(), harness::kPoisonByte);
  if (!cmp.ok()) ADD_FAILURE() << where << ", seed " << seed << ": " << describe_copy(cmp, n);
  if (const std::size_t outside = d_out.guard_damage(); outside > 0)
    ADD_FAILURE() << where << ": wrote " << outside
                  << " elements past out[n - 1]. A float4 store may only cover a group of 4 that "
                     "lies entirely below n; copy the tail one float at a time";
  if (!same_bits(d_in.download(), in))
    ADD_FAILURE() << where << ": the input changed. copy_float4 must only read `in`";
}

INSTANTIATE_TEST_SUITE_P(vector_copy, Float4Correct, ::testing::ValuesIn(kCopyCounts),
                         copy_case_name);

class Float4Speed : public ::testing::TestWithParam<Step> {};

TEST_P(Float4Speed, meets_gate) {
  if (harness::quick()) GTEST_SKIP() << "quick mode: not timed";
  // As many floats as lesson 07's timing matrix (2^26 at side 8192, in + out at least 4x the
  // L2), minus one so that the tail (3 floats) is timed too.
  const long long side = harness::timing_side(2, sizeof(float));
  ASSERT_LT(side * side, 1LL << 31) << "timing shape too large for int indices";
  const int n = static_cast<int>(side * side - 1);
  harness::DeviceBuffer<float> in(n), out(n);

  harness::SpeedCheck c;
  c.lesson = kLesson;
  c.step = coalescing::step_name(Step::vector_copy);
  c.ceiling_kernel = "copy_float4_reference";
  c.shape = fmt::format("{} floats", n);
  c.bytes = 2.0 * static_cast<double>(n) * sizeof(float);
  c.ceiling = [&](cudaStream_t s) {
    return coalescing::launch_copy_float4_reference(in.data(), out.data(), n, s);
  };
  c.student = [&](cudaStream_t s) {
    return coalescing::launch_copy_float4(in.data(), out.data(), n, s);
  };
  c.verify = [&](std::uint64_t seed) -> std::string {
    const std::vector<float> h_in = harness::random_floats(n, seed);
    in.upload(h_in);
    out.poison();
    harness::check(coalescing::launch_copy_float4(in.data(), out.data(), n), "launch copy_float4");
    harness::wait(0, "copy_float4 on " + c.shape);
    const harness::Comparison cmp =
        harness::compare_exact(h_in, out.download(), harness::kPoisonByte);
    return cmp.ok() ? "" : describe_copy(cmp, n);
  };
  c.memcpy_src = in.data();
  c.memcpy_dst = out.data();
  c.memcpy_bytes = static_cast<std::size_t>(n) * sizeof(float);
  harness::run_speed_check(c);
}

INSTANTIATE_TEST_SUITE_P(vector_copy, Float4Speed, ::testing::Values(Step::vector_copy), timed);

}  // namespace
