// Hidden tests of lesson 07_transpose. Test names start with the step they grade:
//   <step>/TransposeCorrect.matches_reference/<rows>x<cols>   exact result on many shapes
//   <step>/TransposeSpeed.meets_gate/timed                     speed against the copy ceiling
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "harness/buffer.hpp"
#include "harness/cuda_check.hpp"
#include "harness/data.hpp"
#include "harness/record.hpp"
#include "harness/speed.hpp"
#include "transpose.cuh"

namespace {

using transpose::Step;

struct Shape {
  int rows, cols;
};

// 1x1; one row and one column; one short of and one past a tile; primes; non-square both ways;
// widths that are not a multiple of 4; multi-block grids, including a 1-D grid of 3126 blocks.
const Shape kShapes[] = {{1, 1},       {1, 777},     {777, 1},    {31, 33},   {33, 31},
                         {32, 32},     {64, 96},     {63, 65},    {97, 61},   {61, 97},
                         {1023, 1025}, {2048, 1536}, {1, 100003}, {100003, 1}};

struct Case {
  Step step;
  Shape shape;
};

std::vector<Case> cases(Step step) {
  std::vector<Case> out;
  for (const Shape& s : kShapes) out.push_back({step, s});
  return out;
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return harness::shape_name(info.param.shape.rows, info.param.shape.cols);
}

std::string kernel_name(Step step) {
  return std::string("transpose_") + transpose::step_name(step);
}

// Host reference: out (cols x rows) = transpose of in (rows x cols). Blocked for cache locality.
std::vector<float> host_transpose(const std::vector<float>& in, int rows, int cols) {
  std::vector<float> out(in.size());
  constexpr int B = 64;
  for (int r0 = 0; r0 < rows; r0 += B)
    for (int c0 = 0; c0 < cols; c0 += B)
      for (int r = r0; r < std::min(rows, r0 + B); ++r)
        for (int c = c0; c < std::min(cols, c0 + B); ++c)
          out[static_cast<size_t>(c) * rows + r] = in[static_cast<size_t>(r) * cols + c];
  return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Inputs differ per shape, so a kernel cannot pass by matching one pattern.
unsigned long long seed_for(const Shape& s) {
  return harness::seed() * 1000003ull + static_cast<unsigned long long>(s.rows) * 7919u + s.cols;
}

class TransposeCorrect : public ::testing::TestWithParam<Case> {};

TEST_P(TransposeCorrect, matches_reference) {
  const auto [step, shape] = GetParam();
  if (std::string why = harness::unsupported("07_transpose", transpose::step_name(step));
      !why.empty())
    GTEST_SKIP() << why;
  const size_t n = static_cast<size_t>(shape.rows) * shape.cols;
  if (harness::quick() && n > (1u << 16)) GTEST_SKIP() << "quick mode: large shape skipped";
  const std::string what = harness::shape_name(shape.rows, shape.cols);
  const unsigned long long seed = seed_for(shape);
  harness::record("shape", what);
  harness::record("seed", static_cast<double>(seed));

  const std::vector<float> in = harness::random_floats(n, seed);
  // Guard elements catch writes past the output (and make reads past the input read NaN). Under
  // compute-sanitizer (quick mode) there are none, so memcheck sees the exact allocation bounds.
  const size_t guard = harness::quick() ? 0 : std::max<size_t>(4096, n);
  harness::DeviceBuffer<float> d_in(n, guard), d_out(n, guard);
  d_in.poison();
  d_in.upload(in);
  d_out.poison();
  const std::string where = kernel_name(step) + " on " + what + " (rows x cols)";
  harness::check(
      transpose::launch_transpose(step, d_in.data(), d_out.data(), shape.rows, shape.cols),
      "launch " + where);
  harness::wait(0, where);

  const harness::Comparison cmp = harness::compare_exact(host_transpose(in, shape.rows, shape.cols),
                                                         d_out.download(), harness::kPoisonByte);
  if (!cmp.ok())
    ADD_FAILURE() << where << ", seed " << seed << ": output is " << shape.cols << "x" << shape.rows
                  << "; " << harness::describe(cmp, shape.rows);
  if (const size_t outside = d_out.guard_damage(); outside > 0)
    ADD_FAILURE() << where << ": wrote " << outside
                  << " elements outside the output, past its last element. Check the bounds of the "
                     "output shape (cols x rows) before every store";
  if (!same_bits(d_in.download(), in))
    ADD_FAILURE() << where << ": the input changed. A transpose must only read its input";
}

INSTANTIATE_TEST_SUITE_P(naive, TransposeCorrect, ::testing::ValuesIn(cases(Step::naive)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(tiled, TransposeCorrect, ::testing::ValuesIn(cases(Step::tiled)),
                         case_name);
INSTANTIATE_TEST_SUITE_P(tiled_padded, TransposeCorrect,
                         ::testing::ValuesIn(cases(Step::tiled_padded)), case_name);
INSTANTIATE_TEST_SUITE_P(tiled_cp_async, TransposeCorrect,
                         ::testing::ValuesIn(cases(Step::tiled_cp_async)), case_name);
INSTANTIATE_TEST_SUITE_P(padded_32x32, TransposeCorrect,
                         ::testing::ValuesIn(cases(Step::padded_32x32)), case_name);

class TransposeSpeed : public ::testing::TestWithParam<Step> {};

TEST_P(TransposeSpeed, meets_gate) {
  if (harness::quick()) GTEST_SKIP() << "quick mode: not timed";
  const Step step = GetParam();
  if (std::string why = harness::unsupported("07_transpose", transpose::step_name(step));
      !why.empty())
    GTEST_SKIP() << why;
  // Square and a multiple of 32: rows of the output are whole sectors, as our gates assume.
  const int side = static_cast<int>(harness::timing_side(2, sizeof(float)));
  const size_t n = static_cast<size_t>(side) * side;
  harness::DeviceBuffer<float> in(n), out(n);

  harness::SpeedCheck c;
  c.lesson = "07_transpose";
  c.step = transpose::step_name(step);
  c.ceiling_kernel = "copy_tiled";
  c.shape = harness::shape_name(side, side) + " floats";
  c.bytes = 2.0 * n * sizeof(float);
  c.ceiling = [&](cudaStream_t s) {
    return transpose::launch_copy_tiled(in.data(), out.data(), side, side, s);
  };
  c.student = [&](cudaStream_t s) {
    return transpose::launch_transpose(step, in.data(), out.data(), side, side, s);
  };
  c.verify = [&](unsigned long long seed) -> std::string {
    const std::vector<float> host = harness::random_floats(n, seed);
    in.upload(host);
    out.poison();
    harness::check(transpose::launch_transpose(step, in.data(), out.data(), side, side),
                   "launch " + kernel_name(step));
    harness::wait(0, kernel_name(step) + " on " + c.shape);
    const harness::Comparison cmp = harness::compare_exact(host_transpose(host, side, side),
                                                           out.download(), harness::kPoisonByte);
    return cmp.ok() ? "" : harness::describe(cmp, side);
  };
  c.memcpy_src = in.data();
  c.memcpy_dst = out.data();
  c.memcpy_bytes = n * sizeof(float);
  harness::run_speed_check(c);
}

std::string timed(const ::testing::TestParamInfo<Step>&) {
  return "timed";
}

INSTANTIATE_TEST_SUITE_P(naive, TransposeSpeed, ::testing::Values(Step::naive), timed);
INSTANTIATE_TEST_SUITE_P(tiled, TransposeSpeed, ::testing::Values(Step::tiled), timed);
INSTANTIATE_TEST_SUITE_P(tiled_padded, TransposeSpeed, ::testing::Values(Step::tiled_padded),
                         timed);
INSTANTIATE_TEST_SUITE_P(tiled_cp_async, TransposeSpeed, ::testing::Values(Step::tiled_cp_async),
                         timed);
INSTANTIATE_TEST_SUITE_P(padded_32x32, TransposeSpeed, ::testing::Values(Step::padded_32x32),
                         timed);

}  // namespace
