// The end-of-case checks of harness/pitched.hpp on host images of a pitched allocation, as the
// usual pitched-indexing mistakes leave them (no GPU: the image is what the Case reads back).
#include "harness/pitched.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using harness::detail::pitched_problems;
using harness::detail::PitchedLayout;

constexpr std::size_t kRows = 7, kCols = 9, kPitch = 512, kGuardRows = 3 * kRows;
const PitchedLayout kLayout{kCols * sizeof(float), kPitch, kRows, sizeof(float)};

// An allocation of kRows + kGuardRows rows, every byte `fill`.
std::vector<std::uint8_t> image(std::uint8_t fill) {
  return std::vector<std::uint8_t>((kRows + kGuardRows) * kPitch, fill);
}

// Stores `v` at byte `offset` of the image, as a kernel's store would (it must stay inside).
void store(std::vector<std::uint8_t>& all, std::size_t offset, float v) {
  ASSERT_LE(offset + sizeof(float), all.size());
  std::memcpy(&all[offset], &v, sizeof(float));
}

// Runs `byte_of(r, c)` for every element, storing 1.0f there: one kernel's addressing.
std::vector<std::uint8_t> written_by(
    const std::function<std::size_t(std::size_t, std::size_t)>& byte_of) {
  std::vector<std::uint8_t> all = image(harness::kOutputPoison);
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t c = 0; c < kCols; ++c) store(all, byte_of(r, c), 1.0f);
  return all;
}

bool contains(const std::vector<std::string>& messages, const std::string& part) {
  for (const std::string& m : messages)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

TEST(PitchedChecks, RightAddressingLeavesPaddingAndGuardRowsIntact) {
  const auto all = written_by([](std::size_t r, std::size_t c) { return r * kPitch + c * 4; });
  EXPECT_TRUE(pitched_problems("out", all, kLayout, false, nullptr).empty());
}

TEST(PitchedChecks, PitchIgnoredWritesIntoThePadding) {
  const auto all = written_by([](std::size_t r, std::size_t c) { return (r * kCols + c) * 4; });
  const auto p = pitched_problems("out", all, kLayout, false, nullptr);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(contains(p, "wrote into the padding after row 0 of out")) << p[0];
  // Row 0's 9 elements are right; rows 1..6 (54 elements, 216 bytes) land in row 0's padding.
  EXPECT_TRUE(contains(p, "216 bytes of padding changed, in 1 row")) << p[0];
  EXPECT_TRUE(contains(p, "the first is byte 36 of that row, 1 byte past out[0][8]")) << p[0];
}

TEST(PitchedChecks, PitchAsElementCountWritesPastTheLastRow) {
  const auto all =
      written_by([](std::size_t r, std::size_t c) { return (r * kPitch + c) * sizeof(float); });
  const auto p = pitched_problems("out", all, kLayout, false, nullptr);
  ASSERT_EQ(p.size(), 1u);
  // Row r lands at row 4r: rows 2..6 of the result (5 x 9 floats, 180 bytes) go to rows 8, 12,
  // ..., 24, past row 6; rows 0 and 1 land on rows 0 and 4, inside the matrix.
  EXPECT_TRUE(contains(p,
                       "wrote 180 bytes past the last row of out, outside the output (the "
                       "first in row 8, 2 rows after the last row 6)"))
      << p[0];
}

TEST(PitchedChecks, AnInputMustKeepItsElementsAndItsPadding) {
  std::vector<float> initial(kRows * kCols);
  for (std::size_t i = 0; i < initial.size(); ++i) initial[i] = static_cast<float>(i);
  std::vector<std::uint8_t> all = image(harness::kInputGuard);
  for (std::size_t r = 0; r < kRows; ++r)
    for (std::size_t c = 0; c < kCols; ++c) store(all, r * kPitch + c * 4, initial[r * kCols + c]);
  EXPECT_TRUE(pitched_problems("in", all, kLayout, true, initial.data()).empty());

  store(all, 3 * kPitch + 5 * 4, -7.0f);   // element (3, 5)
  store(all, 2 * kPitch + 100, 0.0f);      // padding of row 2
  store(all, (kRows + 4) * kPitch, 0.0f);  // a guard row
  const auto p = pitched_problems("in", all, kLayout, true, initial.data());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(contains(p,
                       "wrote into the input in: 4 bytes of its padding (the first after row "
                       "2) and 4 bytes past its last row 6 changed"))
      << p[0];
  EXPECT_TRUE(contains(p, "the input changed: 1 element of in differ")) << p[1];
  EXPECT_TRUE(contains(p, "(the first is in[3][5])")) << p[1];
}

}  // namespace
