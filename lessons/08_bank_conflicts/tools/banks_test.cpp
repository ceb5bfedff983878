// The bank model of `grader banks` (this lesson's tool). Every expected number is worked out from
// the model's two rules in the comment above it: bank = (byte address / 4) % 32, and a pass
// (wavefront) serves one word per bank, so a request takes as many passes as its busiest bank
// has different words; 8-byte requests are served as two half-warps of 16 lanes.
#include "banks.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bank_conflicts::banks::Access;
using bank_conflicts::banks::draw;
using bank_conflicts::banks::Pattern;
using bank_conflicts::banks::Result;
using bank_conflicts::banks::simulate;
using bank_conflicts::banks::sweep;
using bank_conflicts::banks::validate;

Access access(int width, int pad, Pattern pattern = Pattern::column, int index = 0, int row = 32,
              int lanes = 32) {
  Access a;
  a.element_bytes = width;
  a.pad = pad;
  a.pattern = pattern;
  a.index = index;
  a.row_elements = row;
  a.lanes = lanes;
  return a;
}

// float tile[32][32], column 0: lane i at word 32i, bank 0 for all: 32 different words in one
// bank, 32 wavefronts, each serving one lane.
TEST(BankModel, FloatColumnOfUnpaddedTileIs32Way) {
  const Result r = simulate(access(4, 0));
  EXPECT_EQ(r.ways, 32);
  EXPECT_EQ(r.wavefront_count(), 32);
  EXPECT_EQ(r.ideal, 1);
  for (const auto& l : r.lanes) {
    EXPECT_EQ(l.address, 128u * l.lane);
    EXPECT_EQ(l.bank, 0);
  }
  ASSERT_EQ(r.lanes_by_bank[0].size(), 32u);
  for (int b = 1; b < 32; ++b) EXPECT_TRUE(r.lanes_by_bank[b].empty()) << "bank " << b;
  for (int w = 0; w < 32; ++w) EXPECT_EQ(r.wavefronts[w].lanes_by_bank[0], std::vector<int>{w});
}

// Column 7: every lane at bank 7 (word 32i + 7).
TEST(BankModel, AnyColumnOfUnpaddedTileIsOneBank) {
  const Result r = simulate(access(4, 0, Pattern::column, 7));
  EXPECT_EQ(r.ways, 32);
  EXPECT_EQ(r.lanes_by_bank[7].size(), 32u);
}

// float tile[32][33]: lane i at word 33i + c, bank (i + c) % 32: one lane per bank.
TEST(BankModel, FloatColumnOfPaddedTileIsConflictFree) {
  const Result r = simulate(access(4, 1, Pattern::column, 5));
  EXPECT_EQ(r.ways, 1);
  EXPECT_EQ(r.wavefront_count(), 1);
  for (const auto& l : r.lanes) EXPECT_EQ(l.bank, (l.lane + 5) % 32);
}

// Row W = 32 + pad: column conflict degree gcd(W, 32): 2-way for 34, 4-way for 36, 8-way for 40,
// 16-way for 48, none for odd W.
TEST(BankModel, FloatColumnConflictIsGcdOfRowLengthAnd32) {
  const int pads[] = {0, 1, 2, 3, 4, 8, 16};
  const int ways[] = {32, 1, 2, 1, 4, 8, 16};
  for (int i = 0; i < 7; ++i) {
    const Result r = simulate(access(4, pads[i]));
    EXPECT_EQ(r.ways, ways[i]) << "pad " << pads[i];
    EXPECT_EQ(r.wavefront_count(), ways[i]) << "pad " << pads[i];
  }
}

// A row read (lane i at word 32r + i) covers 32 banks whatever the padding.
TEST(BankModel, FloatRowIsConflictFreeForAnyPadding) {
  for (int pad : {0, 1, 2, 7}) {
    const Result r = simulate(access(4, pad, Pattern::row, 3));
    EXPECT_EQ(r.ways, 1) << "pad " << pad;
    EXPECT_EQ(r.lanes[0].bank, (3 * (32 + pad)) % 32) << "pad " << pad;
  }
}

// Swizzle on float tile[32][32]: lane i reads (i, c) at column c ^ i, word 32i + (c ^ i), bank
// c ^ i: the 32 values c ^ 0 .. c ^ 31 are all different.
TEST(BankModel, FloatSwizzledColumnIsConflictFree) {
  for (int c : {0, 1, 13, 31}) {
    const Result r = simulate(access(4, 0, Pattern::swizzled, c));
    EXPECT_EQ(r.ways, 1) << "column " << c;
    for (const auto& l : r.lanes) {
      EXPECT_EQ(l.stored_col, c ^ l.lane);
      EXPECT_EQ(l.bank, c ^ l.lane);
    }
  }
}

// A row shorter than the warp: the swizzle wraps at the row length (column c ^ (i % 16)), and the
// header says so (it printed c ^ i, a column past the row for lanes 16-31: a student's trial).
TEST(BankModel, SwizzleOfAShortRowWrapsAndSaysSo) {
  const Access a = access(4, 0, Pattern::swizzled, 7, 16);
  const Result r = simulate(a);
  for (const auto& l : r.lanes) EXPECT_EQ(l.stored_col, 7 ^ (l.lane % 16)) << l.lane;
  EXPECT_EQ(bank_conflicts::banks::expression(a),
            "float tile[32][16]; lane i reads element (i, 7), stored at tile[i][7 ^ (i % 16)]");
  EXPECT_EQ(bank_conflicts::banks::expression(access(4, 0, Pattern::swizzled, 7)),
            "float tile[32][32]; lane i reads element (i, 7), stored at tile[i][7 ^ i]");
}

// Broadcast (the A tile's read in the lesson): 32 lanes on one word of bank (32 * 0 + 9) % 32 =
// 9: one pass, one word delivered to all lanes.
TEST(BankModel, BroadcastIsOnePass) {
  const Result r = simulate(access(4, 0, Pattern::broadcast, 9));
  EXPECT_EQ(r.ways, 1);
  ASSERT_EQ(r.wavefront_count(), 1);
  EXPECT_EQ(r.wavefronts[0].lanes_by_bank[9].size(), 32u);
  for (const auto& l : r.lanes) EXPECT_EQ(l.address, 36u);
}

// A single lane: 1 pass, ideal 1.
TEST(BankModel, SingleLaneIsOnePass) {
  const Result r = simulate(access(4, 0, Pattern::column, 0, 32, 1));
  EXPECT_EQ(r.ways, 1);
  EXPECT_EQ(r.wavefront_count(), 1);
  EXPECT_EQ(r.ideal, 1);
}

// double tile[32][32]: lane i at byte 256i + 8c, word 64i + 2c, banks 2c % 32 and that + 1 for
// every lane. Each half-warp: 16 different words in each of two banks, 16 passes; 32 in all.
TEST(BankModel, DoubleColumnOfUnpaddedTile) {
  const Result r = simulate(access(8, 0, Pattern::column, 3));
  EXPECT_EQ(r.phases, 2);
  EXPECT_EQ(r.ideal, 2);
  EXPECT_EQ(r.ways, 16);
  EXPECT_EQ(r.wavefront_count(), 32);
  for (const auto& l : r.lanes) {
    EXPECT_EQ(l.bank, 6);
    EXPECT_EQ(l.phase, l.lane / 16);
  }
  EXPECT_EQ(r.lanes_by_bank[6].size(), 32u);
  EXPECT_EQ(r.lanes_by_bank[7].size(), 32u);
}

// double tile[32][33]: row = 264 B = 66 words, lane i at word 66i + 2c, bank (2i + 2c) % 32.
// Lanes 0-15 take banks 2c, 2c+2, ..., 16 different pairs covering all 32 banks: one pass per
// half-warp, 2 in all, the minimum for 256 bytes.
TEST(BankModel, DoubleColumnPaddedByOneIsTwoWavefronts) {
  const Result r = simulate(access(8, 1));
  EXPECT_EQ(r.ways, 1);
  EXPECT_EQ(r.wavefront_count(), 2);
  EXPECT_EQ(r.ideal, 2);
  for (const auto& l : r.lanes) EXPECT_EQ(l.bank, (2 * l.lane) % 32);
  // Lanes i and i + 16 share banks, but in different half-warps: no conflict.
  EXPECT_EQ(r.lanes_by_bank[0], (std::vector<int>{0, 16}));
}

// double tile[32][34]: 68 words per row, bank (4i + 2c) % 32: lanes i and i + 8 collide within a
// half-warp: 2-way, 2 passes per half-warp, 4 in all.
TEST(BankModel, DoubleColumnPaddedByTwoIsTwoWay) {
  const Result r = simulate(access(8, 2));
  EXPECT_EQ(r.ways, 2);
  EXPECT_EQ(r.wavefront_count(), 4);
}

// Odd paddings of doubles are all conflict-free (2 passes); pad 4: 72 words, bank 8i % 32, lanes
// 4 apart collide: 4-way, 8 passes.
TEST(BankModel, DoublePaddingsSweep) {
  const int pads[] = {0, 1, 2, 3, 4, 8};
  const int waves[] = {32, 2, 4, 2, 8, 16};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(simulate(access(8, pads[i])).wavefront_count(), waves[i]) << "pad " << pads[i];
}

// A double row read: lane i at word 2i (+ row offset): lanes 0-15 cover words 0..31, one pass;
// lanes 16-31 the next 32 words, one pass: 2 wavefronts, conflict-free.
TEST(BankModel, DoubleRowIsTwoWavefronts) {
  const Result r = simulate(access(8, 0, Pattern::row, 0));
  EXPECT_EQ(r.ways, 1);
  EXPECT_EQ(r.wavefront_count(), 2);
}

// The swizzle on doubles, 32 x 32: lane i at word 64i + 2(c ^ i), bank 2(c ^ i) % 32; within a
// half-warp (i = 0..15 or 16..31) c ^ i takes 16 values with 16 different low 4 bits: 16
// different bank pairs, conflict-free.
TEST(BankModel, DoubleSwizzledColumnIsConflictFree) {
  for (int c : {0, 5, 31}) {
    const Result r = simulate(access(8, 0, Pattern::swizzled, c));
    EXPECT_EQ(r.ways, 1) << "column " << c;
    EXPECT_EQ(r.wavefront_count(), 2) << "column " << c;
  }
}

// A half warp of doubles: 16 lanes, one phase only.
TEST(BankModel, SixteenLanesOfDoublesAreOnePhase) {
  const Result r = simulate(access(8, 1, Pattern::column, 0, 32, 16));
  EXPECT_EQ(r.phases, 1);
  EXPECT_EQ(r.wavefront_count(), 1);
}

TEST(BankModel, ValidateNamesTheParameter) {
  EXPECT_EQ(validate(access(4, 0)), "");
  EXPECT_NE(validate(access(2, 0)).find("element width must be 4 or 8 bytes (got 2)"),
            std::string::npos);
  EXPECT_NE(validate(access(16, 0)).find("element width"), std::string::npos);
  EXPECT_NE(validate(access(4, -1)).find("padding"), std::string::npos);
  EXPECT_NE(validate(access(4, 0, Pattern::column, 32)).find("column index must be below"),
            std::string::npos);
  EXPECT_NE(validate(access(4, 0, Pattern::swizzled, 0, 33)).find("power-of-two"),
            std::string::npos);
  EXPECT_NE(validate(access(4, 0, Pattern::row, 0, 16)).find("room for 16 lanes"),
            std::string::npos);
  EXPECT_NE(validate(access(4, 0, Pattern::column, 0, 32, 0)).find("lanes"), std::string::npos);
  EXPECT_THROW(simulate(access(3, 0)), std::invalid_argument);
}

TEST(BankDrawing, SummaryLines) {
  EXPECT_NE(draw(access(4, 0), simulate(access(4, 0)), false)
                .find("32-way bank conflict: 32 wavefronts per warp request (conflict-free: 1)"),
            std::string::npos);
  EXPECT_NE(draw(access(4, 1), simulate(access(4, 1)), false)
                .find("conflict-free: 1 wavefront per warp request"),
            std::string::npos);
  const std::string d = draw(access(8, 2), simulate(access(8, 2)), false);
  EXPECT_NE(d.find("2-way bank conflict: 4 wavefronts per warp request (conflict-free: 2, one per "
                   "half-warp)"),
            std::string::npos);
  EXPECT_NE(d.find("half-warp 1 (lanes 0-15): 2 wavefronts"), std::string::npos);
  EXPECT_NE(d.find("double tile[32][32 + 2]; lane i reads tile[i][0]"), std::string::npos);
  const Access b = access(4, 0, Pattern::broadcast, 3);
  EXPECT_NE(draw(b, simulate(b), false).find("one word for several lanes"), std::string::npos);
  EXPECT_NE(draw(b, simulate(b), false).find("every lane reads tile[0][3]"), std::string::npos);
}

// The drawing fits 80 columns and has no escape codes without colour.
TEST(BankDrawing, FitsTheTerminalWithoutColour) {
  for (const Access& a : {access(4, 0), access(8, 1), access(4, 0, Pattern::swizzled, 9)}) {
    const std::string d = draw(a, simulate(a), false);
    EXPECT_EQ(d.find('\x1b'), std::string::npos);
    std::istringstream in(d);
    for (std::string line; std::getline(in, line);) {
      int cols = 0;
      for (unsigned char ch : line)
        if ((ch & 0xC0) != 0x80) ++cols;
      EXPECT_LE(cols, 80) << line;
    }
  }
}

// The 32-wavefront drawing elides the middle passes.
TEST(BankDrawing, LongConflictsAreElided) {
  const std::string d = draw(access(4, 0), simulate(access(4, 0)), false);
  EXPECT_NE(d.find("... 27 more wavefronts"), std::string::npos);
  EXPECT_NE(d.find("wave 32"), std::string::npos);
  EXPECT_EQ(d.find("wave 5 "), std::string::npos);
}

TEST(BankSweep, FloatColumn) {
  const std::string s = sweep(access(4, 0), {0, 1, 2, 3, 4, 8});
  EXPECT_NE(s.find("32-way"), std::string::npos);
  EXPECT_NE(s.find("8-way"), std::string::npos);
  EXPECT_NE(s.find("none"), std::string::npos);
  EXPECT_THROW(sweep(access(4, 0), {-1}), std::invalid_argument);
}

}  // namespace
