// The answers written in lesson 09_vectorized_memory's quiz.json, recomputed from addresses,
// counts and the bank formula (quiz_pins.hpp explains the pins).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

constexpr std::uint64_t kMalloc = 0x7f0000000000;  // any cudaMalloc result: 256-byte aligned
constexpr int kFloat = 4, kFloat4 = 16, kBanks = 32, kWarp = 32;

// Floats of a view starting `offset` floats past an aligned base, before its first 16-byte
// boundary (at most n).
int head(int offset, int n) {
  const std::uint64_t address = kMalloc + static_cast<std::uint64_t>(offset) * kFloat;
  const int h = static_cast<int>((kFloat4 - address % kFloat4) % kFloat4 / kFloat);
  return h < n ? h : n;
}

// First bank of float4 (row, col) of a float4[64][16] array at shared address 0.
int float4_bank(int row, int col) {
  const int byte = (row * 16 + col) * kFloat4;
  return byte / 4 % kBanks;
}

// Wavefronts one 8-lane phase of 16-byte accesses needs: the most float4 of distinct addresses
// that share a first bank.
int phase_wavefronts(const int rows[8], const int cols[8]) {
  int worst = 0;
  for (int b = 0; b < kBanks; b += 4) {
    std::set<int> addresses;
    for (int l = 0; l < 8; ++l)
      if (float4_bank(rows[l], cols[l]) == b) addresses.insert(rows[l] * 16 + cols[l]);
    worst = std::max<int>(worst, static_cast<int>(addresses.size()));
  }
  return worst;
}

QUIZ_NUMERIC("view-misalignment") {
  return static_cast<double>((kMalloc + 6 * kFloat) % kFloat4);
}

QUIZ_NUMERIC("view-head") {
  return head(5, 1000);
}

QUIZ_NUMERIC("view-tail") {
  const int n = 1000, h = head(5, n);
  return (n - h) % 4;
}

QUIZ_NUMERIC("scalar-loads-per-warp") {
  return 512 * kFloat / (kWarp * kFloat);
}

QUIZ_NUMERIC("float4-loads-per-warp") {
  return 512 * kFloat / (kWarp * kFloat4);
}

QUIZ_NUMERIC("float4-bank") {
  const int row = 9, col = 3;
  return float4_bank(row, col ^ ((row / 4) % 8));
}

QUIZ_CHOICE("unswizzled-conflict", q) {
  // Lanes q = 0..7 of one phase store tile[4q + k][g] (k = 0, g = 5, say); unswizzled and swizzled.
  int rows[8], plain[8], swizzled[8];
  for (int l = 0; l < 8; ++l) {
    rows[l] = 4 * l;
    plain[l] = 5;
    swizzled[l] = 5 ^ (l % 8);
  }
  if (phase_wavefronts(rows, plain) != 8 || phase_wavefronts(rows, swizzled) != 1) return -1;
  return only_choice_starting(q, "an 8-way bank conflict");
}

// A 64x64 tile of floats over the 16x16 threads of a block: each thread loads its share of the
// tile's bytes, all before using any (and the claim "four times lesson 07's": 4 floats of 4 bytes).
QUIZ_NUMERIC("bytes-per-thread-64") {
  const int tile_bytes = 64 * 64 * kFloat, threads = 16 * 16;
  if (tile_bytes / threads != 4 * (4 * kFloat)) return -1;
  return tile_bytes / threads;
}

QUIZ_CHOICE("misaligned-float4", q) {
  // in + 1 is 4 bytes past a boundary: not a multiple of the 16-byte access size.
  if ((kMalloc + kFloat) % kFloat4 == 0) return -1;
  return only_choice_starting(q, "nothing: the address of a 16-byte access");
}

// The swizzle is a permutation of the 16 float4 columns in every row (nothing is lost), and the
// read side's 8 lanes (one row, columns 0..7) hit 8 different bank groups too.
TEST(Quiz09Facts, SwizzleIsAPermutationAndConflictFreeOnReads) {
  for (int row = 0; row < 64; ++row) {
    std::set<int> cols;
    for (int c = 0; c < 16; ++c) cols.insert(c ^ ((row / 4) % 8));
    EXPECT_EQ(cols.size(), 16u);
    EXPECT_EQ(*cols.rbegin(), 15);
    for (int half = 0; half < 2; ++half) {
      int rows[8], phys[8];
      for (int l = 0; l < 8; ++l) {
        rows[l] = row;
        phys[l] = (8 * half + l) ^ ((row / 4) % 8);
      }
      EXPECT_EQ(phase_wavefronts(rows, phys), 1) << "row " << row;
    }
  }
}

}  // namespace
