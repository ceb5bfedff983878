// The harness's comparisons run over all cores on large outputs: counts and the first mismatch
// must be those of a serial scan, wherever the ranges split.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "harness/data.hpp"

namespace {

TEST(CompareBits, ParallelScanGivesTheSerialFirstMismatchAndCounts) {
  const std::size_t n = (std::size_t(1) << 23) + 7;  // several ranges of 2^20 and a ragged end
  std::vector<float> expected(n, 1.0f), got(n, 1.0f);
  const std::size_t wrong[] = {3 * (std::size_t(1) << 20) + 5, 4 * (std::size_t(1) << 20), n - 1};
  for (std::size_t i : wrong) got[i] = 2.0f;
  got[n - 2] = -3.0f;  // "unwritten" below
  const harness::Mismatches m =
      harness::compare_bits(expected, got, [&](std::size_t i) { return got[i] == -3.0f; });
  EXPECT_EQ(m.wrong, 4u);
  EXPECT_EQ(m.unwritten, 1u);
  EXPECT_EQ(m.first, wrong[0]);
  EXPECT_EQ(m.expected, "1");
  EXPECT_EQ(m.got, "2");
  EXPECT_FALSE(m.first_unwritten);
}

// A reference of another size than the output is the hidden test's mistake: refused, never a
// comparison that leaves elements unchecked.
TEST(CompareBits, AnOutputAndAReferenceOfDifferentSizesAreRefused) {
  const std::vector<int> four = {1, 2, 3, 4}, two = {1, 2};
  const auto none = [](std::size_t) { return false; };
  EXPECT_THROW(harness::compare_bits(four, two, none), std::logic_error);
  EXPECT_THROW(harness::compare_bits(two, four, none), std::logic_error);
}

TEST(CompareNear, ToleranceAndNonFiniteValues) {
  const std::vector<double> exact = {1.0, 2.0, 3.0}, tol = {0.1, 0.1, 0.1};
  const std::vector<float> got = {1.05f, 2.5f, std::numeric_limits<float>::quiet_NaN()};
  const harness::Mismatches m =
      harness::compare_near(exact, tol, got, [](std::size_t) { return false; });
  EXPECT_EQ(m.wrong, 2u);
  EXPECT_EQ(m.first, 1u);
}

}  // namespace

// The bound the lessons hold float sums and dot products to: a float dot product of eight mixed
// values, one multiply and seven fused multiply-adds as lesson 15's solution computes it, or a
// sequential float sum of 20,011 values of mean 1 (lesson 10's mean-one row), stays inside it,
// and an int running sum of those values (lesson 10's int_accumulator) does not.
TEST(FloatRoundingBound, HoldsFloatResultsAndNotAnIntAccumulator) {
  EXPECT_DOUBLE_EQ(harness::float_rounding_bound(8, 1.0), 1.01 * 8 / 16777216.0);
  const std::vector<float> m = harness::random_floats(8 * 512, 1),
                           v = harness::random_floats(8 * 512, 2);
  for (std::size_t j = 0; j < 512; ++j) {
    float s = m[8 * j] * v[8 * j];
    double exact = double(m[8 * j]) * v[8 * j], magnitude = std::fabs(exact);
    for (int k = 1; k < 8; ++k) {
      s = std::fma(m[8 * j + k], v[8 * j + k], s);
      const double term = double(m[8 * j + k]) * v[8 * j + k];
      exact += term;
      magnitude += std::fabs(term);
    }
    EXPECT_LE(std::fabs(s - exact), harness::float_rounding_bound(8, magnitude)) << j;
  }
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> mean_one(0.5f, 1.5f);
  float sum = 0;
  int truncated = 0;  // the int accumulator: every addition drops the fraction
  double exact = 0, magnitude = 0;
  for (int i = 0; i < 20011; ++i) {
    const float y = mean_one(gen);
    sum += y;
    truncated += y;
    exact += y;
    magnitude += y;
  }
  EXPECT_LE(std::fabs(sum - exact), harness::float_rounding_bound(20011, magnitude));
  EXPECT_GT(std::fabs(truncated - exact), harness::float_rounding_bound(20011, magnitude));
}

// The transpose reference of lessons 07 and 09: every element moved, on shapes smaller than,
// equal to and larger than its 64x64 blocks, non-square both ways; a size that is not
// rows * cols is refused.
TEST(HostTranspose, MovesEveryElementOnAnyShape) {
  for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{
           {1, 1}, {1, 70}, {70, 1}, {3, 5}, {64, 64}, {65, 129}, {200, 63}}) {
    std::vector<float> in(static_cast<std::size_t>(rows) * cols);
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
    const std::vector<float> out = harness::host_transpose(in, rows, cols);
    ASSERT_EQ(out.size(), in.size());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c)
        ASSERT_EQ(out[static_cast<std::size_t>(c) * rows + r],
                  in[static_cast<std::size_t>(r) * cols + c])
            << rows << "x" << cols << " at (" << r << ", " << c << ")";
  }
  EXPECT_THROW(harness::host_transpose(std::vector<float>(5), 2, 3), std::invalid_argument);
}
