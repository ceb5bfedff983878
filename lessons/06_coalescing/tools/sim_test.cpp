// The sector model of `grader sim` (this lesson's tool). The numbers pinned here are the lesson's
// own: a sector is 32 bytes, a line 128 bytes, and a warp request moves 32 bytes per distinct
// sector.
#include "sim.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using coalescing::sim::Access;
using coalescing::sim::draw;
using coalescing::sim::percent;
using coalescing::sim::Result;
using coalescing::sim::simulate;
using coalescing::sim::simulate_addresses;
using coalescing::sim::sweep;
using coalescing::sim::validate;

using Indices = std::vector<unsigned long long>;

Access access(long long stride, long long offset = 0, int element_bytes = 4, int lanes = 32) {
  Access a;
  a.stride = stride;
  a.offset = offset;
  a.element_bytes = element_bytes;
  a.lanes = lanes;
  return a;
}

Indices range(unsigned long long first, unsigned long long count, unsigned long long step = 1) {
  Indices v;
  for (unsigned long long i = 0; i < count; ++i) v.push_back(first + i * step);
  return v;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Terminal columns of a line without escape codes: UTF-8 code points.
int columns(const std::string& s) {
  int n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// Removes ANSI SGR sequences (ESC [ ... m), which take no columns on a terminal.
std::string strip_escapes(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    out += s[i];
  }
  return out;
}

// c[i] = a[i] with floats: 32 x 4 B = bytes 0..127 = sectors 0..3, all of line 0.
TEST(SimSectors, CoalescedFloatsAreFourSectorsOneLineFullyUsed) {
  const Result r = simulate(access(1));
  EXPECT_EQ(r.sectors, range(0, 4));
  EXPECT_EQ(r.lines, Indices{0});
  EXPECT_EQ(r.bytes_moved, 128u);
  EXPECT_EQ(r.bytes_used, 128u);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
  ASSERT_EQ(r.lane_address.size(), 32u);
  EXPECT_EQ(r.lane_address.front(), 0u);
  EXPECT_EQ(r.lane_address[1], 4u);
  EXPECT_EQ(r.lane_address.back(), 124u);
}

// Stride 2: lane i at byte 8i, bytes 0..251 = sectors 0..7, half of each unused.
TEST(SimSectors, StrideTwoIsEightSectorsHalfUsed) {
  const Result r = simulate(access(2));
  EXPECT_EQ(r.sectors, range(0, 8));
  EXPECT_EQ(r.lines, range(0, 2));
  EXPECT_EQ(r.bytes_moved, 256u);
  EXPECT_EQ(r.bytes_used, 128u);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.5);
}

// Stride 4: lane i at byte 16i, two lanes per sector, 16 sectors.
TEST(SimSectors, StrideFourIsSixteenSectorsQuarterUsed) {
  const Result r = simulate(access(4));
  EXPECT_EQ(r.sectors, range(0, 16));
  EXPECT_EQ(r.lines, range(0, 4));
  EXPECT_EQ(r.bytes_moved, 512u);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.25);
}

// c[i] = a[i*8]: lane i at byte 32i, one sector per lane, 4 of its 32 bytes used.
TEST(SimSectors, StrideEightIsThirtyTwoSectorsEighthUsed) {
  const Result r = simulate(access(8));
  EXPECT_EQ(r.sectors, range(0, 32));
  EXPECT_EQ(r.lines, range(0, 8));
  EXPECT_EQ(r.bytes_moved, 1024u);
  EXPECT_EQ(r.bytes_used, 128u);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.125);
}

// Stride 16: lane i at byte 64i, sectors 0, 2, 4, ..., 62, two lanes per line.
TEST(SimSectors, StrideSixteenSkipsEverySecondSector) {
  const Result r = simulate(access(16));
  EXPECT_EQ(r.sectors, range(0, 32, 2));
  EXPECT_EQ(r.lines, range(0, 16));
  EXPECT_DOUBLE_EQ(r.efficiency, 0.125);
}

// Stride 32: lane i at byte 128i, every lane in its own line; no worse in sectors than stride 8.
TEST(SimSectors, StrideThirtyTwoIsOneLinePerLane) {
  const Result r = simulate(access(32));
  EXPECT_EQ(r.sectors, range(0, 32, 4));
  EXPECT_EQ(r.lines, range(0, 32));
  EXPECT_EQ(r.bytes_moved, 1024u);
  EXPECT_EQ(r.bytes_used, 128u);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.125);
}

// Offset 1 float: bytes 4..131 spill one element into sector 4, which is in line 1.
TEST(SimSectors, MisalignedByOneFloatIsFiveSectorsTwoLines) {
  const Result r = simulate(access(1, 1));
  EXPECT_EQ(r.lane_address.front(), 4u);
  EXPECT_EQ(r.sectors, range(0, 5));
  EXPECT_EQ(r.lines, range(0, 2));
  EXPECT_EQ(r.bytes_moved, 160u);
  EXPECT_EQ(r.bytes_used, 128u);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.8);
}

// Offset 8 floats (32 B): sector aligned but not line aligned, 4 sectors over 2 lines.
TEST(SimSectors, SectorAlignedButNotLineAlignedCostsNoExtraSector) {
  const Result r = simulate(access(1, 8));
  EXPECT_EQ(r.sectors, range(1, 4));
  EXPECT_EQ(r.lines, range(0, 2));
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

// float4 / 16-byte elements: 32 x 16 B = 512 B = 16 sectors, 4 lines.
TEST(SimSectors, SixteenByteElementsAreSixteenSectorsFullyUsed) {
  const Result r = simulate(access(1, 0, 16));
  EXPECT_EQ(r.sectors, range(0, 16));
  EXPECT_EQ(r.lines, range(0, 4));
  EXPECT_EQ(r.bytes_moved, 512u);
  EXPECT_EQ(r.bytes_used, 512u);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

// double: 32 x 8 B = 256 B = 8 sectors, 2 lines.
TEST(SimSectors, DoublesAreEightSectors) {
  const Result r = simulate(access(1, 0, 8));
  EXPECT_EQ(r.sectors, range(0, 8));
  EXPECT_EQ(r.lines, range(0, 2));
  EXPECT_EQ(r.bytes_used, 256u);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

// half: 32 x 2 B = 64 B = 2 sectors.
TEST(SimSectors, HalvesAreTwoSectors) {
  const Result r = simulate(access(1, 0, 2));
  EXPECT_EQ(r.sectors, range(0, 2));
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

// char: 32 x 1 B = 32 B = exactly one sector.
TEST(SimSectors, BytesAreOneSector) {
  const Result r = simulate(access(1, 0, 1));
  EXPECT_EQ(r.sectors, Indices{0});
  EXPECT_EQ(r.lines, Indices{0});
  EXPECT_EQ(r.bytes_moved, 32u);
  EXPECT_EQ(r.bytes_used, 32u);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
}

// Stride 0: every lane reads the same float. One sector moves; the 4 bytes count once.
TEST(SimSectors, BroadcastIsOneSectorAndCountsTheElementOnce) {
  const Result r = simulate(access(0));
  EXPECT_EQ(r.lane_address, Indices(32, 0));
  EXPECT_EQ(r.sectors, Indices{0});
  EXPECT_EQ(r.lines, Indices{0});
  EXPECT_EQ(r.bytes_moved, 32u);
  EXPECT_EQ(r.bytes_used, 4u);
  EXPECT_DOUBLE_EQ(r.efficiency, 4.0 / 32.0);
}

TEST(SimSectors, BroadcastOfAWideElementStillCountsItOnce) {
  const Result r = simulate(access(0, 3, 16));  // bytes 48..63, the second half of sector 1
  EXPECT_EQ(r.sectors, Indices{1});
  EXPECT_EQ(r.bytes_used, 16u);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.5);
}

// AoS: struct Particle { float x, y, z, vx, vy, vz; } is 24 B; reading p[i].x is 4-byte elements
// at stride 6, so lane i reads bytes [24i, 24i + 4). 24i mod 32 runs 0, 24, 16, 8, so no element
// crosses a sector. Lane i is in sector floor(24i / 32) = floor(3i / 4): each group of 4 lanes
// spans 96 B = 3 sectors and its lanes hit 3k, 3k, 3k+1, 3k+2, i.e. all three. 8 groups -> 24
// sectors = 768 B moved for 128 B used (1/6 = 16.7%); the last byte is 24*31 + 3 = 747, so lines
// 0..5.
TEST(SimSectors, AosOfTwentyFourByteStructReadingOneFloat) {
  const Result r = simulate(access(6));
  EXPECT_EQ(r.sectors, range(0, 24));
  EXPECT_EQ(r.lines, range(0, 6));
  EXPECT_EQ(r.bytes_moved, 768u);
  EXPECT_EQ(r.bytes_used, 128u);
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0 / 6.0);
}

TEST(SimSectors, PartialWarpCountsOnlyItsLanes) {
  const Result r = simulate(access(1, 0, 4, 8));  // 8 lanes x 4 B = one sector
  EXPECT_EQ(r.lane_address.size(), 8u);
  EXPECT_EQ(r.sectors, Indices{0});
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);
  const Result one = simulate(access(8, 0, 4, 1));  // one lane: 4 of 32 B
  EXPECT_EQ(one.sectors, Indices{0});
  EXPECT_DOUBLE_EQ(one.efficiency, 0.125);
}

// Elements cannot be misaligned through Access (offsets are in elements), so the straddling rule
// is pinned on the address-level model: a 16-byte element at byte 24 covers bytes 24..39.
TEST(SimSectors, MisalignedWideElementTouchesTwoSectors) {
  const Result r = simulate_addresses({24}, 16);
  EXPECT_EQ(r.sectors, range(0, 2));
  EXPECT_EQ(r.bytes_moved, 64u);
  EXPECT_EQ(r.bytes_used, 16u);
  const Result line = simulate_addresses({120}, 16);  // bytes 120..135 cross into line 1
  EXPECT_EQ(line.sectors, range(3, 2));
  EXPECT_EQ(line.lines, range(0, 2));
}

TEST(SimSectors, OverlappingElementsCountDistinctBytes) {
  const Result r = simulate_addresses({0, 2, 4}, 4);  // bytes 0..5, 2..5 shared
  EXPECT_EQ(r.bytes_used, 8u);
  EXPECT_EQ(r.sectors, Indices{0});
}

TEST(SimSectors, AddressModelRejectsBadInput) {
  EXPECT_THROW(simulate_addresses({}, 4), std::invalid_argument);
  EXPECT_THROW(simulate_addresses(Indices(33, 0), 4), std::invalid_argument);
  EXPECT_THROW(simulate_addresses({0}, 3), std::invalid_argument);
  EXPECT_THROW(simulate_addresses({coalescing::sim::kAddressLimit - 2}, 4), std::invalid_argument);
  EXPECT_NO_THROW(simulate_addresses({coalescing::sim::kAddressLimit - 4}, 4));
}

TEST(SimValidate, AcceptsTheDefaultsAndEveryWidth) {
  EXPECT_EQ(validate(Access{}), "");
  for (int w : {1, 2, 4, 8, 16}) EXPECT_EQ(validate(access(1, 0, w)), "") << w;
  EXPECT_EQ(validate(access(0, 0, 4, 1)), "");
  EXPECT_EQ(validate(access(1, 0, 4, 32)), "");
}

TEST(SimValidate, RejectsBadParametersWithAOneLineMessage) {
  const std::vector<std::pair<Access, std::string>> bad = {
      {access(1, 0, 3), "got 3"},    {access(1, 0, 0), "got 0"},      {access(1, 0, 32), "got 32"},
      {access(1, 0, 4, 0), "got 0"}, {access(1, 0, 4, 33), "got 33"}, {access(-1), "got -1"},
      {access(1, -4), "got -4"},
  };
  for (const auto& [a, needle] : bad) {
    const std::string why = validate(a);
    EXPECT_NE(why, "") << needle;
    EXPECT_NE(why.find(needle), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
    EXPECT_THROW(simulate(a), std::invalid_argument) << why;
  }
  EXPECT_EQ(validate(access(1, 0, 3)), "element width must be 1, 2, 4, 8 or 16 bytes (got 3)");
  EXPECT_NE(validate(access(1, 0, 4, 0)).find("lanes"), std::string::npos);
  EXPECT_NE(validate(access(-1)).find("stride"), std::string::npos);
  EXPECT_NE(validate(access(1, -4)).find("offset"), std::string::npos);
}

TEST(SimValidate, RejectsAddressesBeyondTheModelledRange) {
  const long long elements = static_cast<long long>(coalescing::sim::kAddressLimit / 4);
  EXPECT_EQ(validate(access(0, elements - 1)), "");
  EXPECT_NE(validate(access(0, elements)), "");
  const long long max_stride = (elements - 1) / 31;
  EXPECT_EQ(validate(access(max_stride)), "");
  EXPECT_NE(validate(access(max_stride + 1)), "");
  EXPECT_NE(validate(access(1LL << 62)), "");  // would overflow 64 bits if not caught
  const Result r = simulate(access(max_stride));
  EXPECT_EQ(r.lane_address.back(), static_cast<unsigned long long>(31 * max_stride) * 4);
  EXPECT_EQ(r.sectors.size(), 32u);
}

TEST(SimPercent, OneDecimalAtMostAndNeverRoundsUpToFull) {
  EXPECT_EQ(percent(1.0), "100%");
  EXPECT_EQ(percent(0.5), "50%");
  EXPECT_EQ(percent(0.125), "12.5%");
  EXPECT_EQ(percent(1.0 / 6.0), "16.7%");
  EXPECT_EQ(percent(2047.0 / 2048.0), "99.9%");
}

TEST(SimDraw, CoalescedShowsTheLessonsSummary) {
  const Access a = access(1);
  const std::string text = draw(a, simulate(a), false);
  EXPECT_NE(text.find("moved 128 B / used 128 B = 100%"), std::string::npos) << text;
  EXPECT_NE(text.find("4 sectors, 1 line per warp request"), std::string::npos) << text;
  EXPECT_NE(text.find("t0"), std::string::npos);
  EXPECT_NE(text.find("t31"), std::string::npos);
  EXPECT_NE(text.find("124"), std::string::npos);  // lane 31's address
  for (const char* s : {"s0", "s1", "s2", "s3"}) EXPECT_NE(text.find(s), std::string::npos) << s;
}

TEST(SimDraw, StrideEightPlainHasNoEscapesAndTheLessonsNumbers) {
  const Access a = access(8);
  const std::string text = draw(a, simulate(a), false);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_NE(text.find("12.5%"), std::string::npos) << text;
  EXPECT_NE(text.find("moved 1024 B / used 128 B = 12.5%"), std::string::npos) << text;
  EXPECT_NE(text.find("32 sectors, 8 lines per warp request"), std::string::npos) << text;
  EXPECT_NE(text.find("4/32 B"), std::string::npos) << text;
  EXPECT_NE(text.find("992"), std::string::npos);  // lane 31's address
  // More than 16 sectors: the first and last are drawn, the middle is elided.
  EXPECT_NE(text.find("s0 "), std::string::npos);
  EXPECT_NE(text.find("s31"), std::string::npos);
  EXPECT_EQ(text.find("s15 "), std::string::npos) << text;
  EXPECT_NE(text.find("16 more sectors"), std::string::npos) << text;
}

TEST(SimDraw, SixteenSectorsAreAllDrawn) {
  const Access a = access(4);
  const std::string text = draw(a, simulate(a), false);
  for (int s = 0; s < 16; ++s)
    EXPECT_NE(text.find("s" + std::to_string(s)), std::string::npos) << s << "\n" << text;
  EXPECT_EQ(text.find("more sectors"), std::string::npos) << text;
}

TEST(SimDraw, ColorMarksUsedAndWastedBytes) {
  const Access a = access(8);
  const std::string text = draw(a, simulate(a), true);
  EXPECT_NE(text.find("\x1b[32m"), std::string::npos);  // used
  EXPECT_NE(text.find("\x1b[31m"), std::string::npos);  // wasted
  EXPECT_NE(text.find("12.5%"), std::string::npos);
  // The wasted glyph (red ░) appears once in the legend, and in the boxes only when bytes are
  // wasted.
  auto wasted_cells = [](const std::string& t) {
    const std::string glyph = "\x1b[31m\xe2\x96\x91";
    int n = 0;
    for (size_t at = t.find(glyph); at != std::string::npos; at = t.find(glyph, at + 1)) ++n;
    return n;
  };
  const Access full = access(1);
  EXPECT_EQ(wasted_cells(draw(full, simulate(full), true)), 1);
  EXPECT_EQ(wasted_cells(text), 1 + 16 * 7);  // 16 sectors drawn, 7 of 8 cells wasted in each
}

TEST(SimDraw, BroadcastSaysSo) {
  const Access a = access(0, 5);
  const std::string text = draw(a, simulate(a), false);
  EXPECT_NE(text.find("broadcast"), std::string::npos) << text;
  EXPECT_NE(text.find("moved 32 B / used 4 B = 12.5%"), std::string::npos) << text;
  EXPECT_NE(text.find("1 sector, 1 line per warp request"), std::string::npos) << text;
}

TEST(SimDraw, EveryLineFitsEightyColumns) {
  const long long huge = static_cast<long long>((coalescing::sim::kAddressLimit / 16 - 1) / 31);
  const std::vector<Access> cases = {
      access(1),
      access(2),
      access(8),
      access(32),
      access(6),
      access(0),
      access(1, 1),
      access(1, 0, 16),
      access(3, 0, 1),
      access(1, 0, 4, 1),
      access(7, 3, 2, 5),
      access(huge, 0, 16),
      access(0, (1LL << 44) - 1, 16),
  };
  const std::string big_sweep = sweep(access(1, 0, 1), {1, huge, 1LL << 40});
  for (const std::string& line : lines_of(big_sweep)) EXPECT_LE(columns(line), 80) << line;
  for (const Access& a : cases) {
    for (bool color : {false, true})
      for (const std::string& line : lines_of(strip_escapes(draw(a, simulate(a), color))))
        EXPECT_LE(columns(line), 80) << "stride " << a.stride << ": " << line;
    Access widest = a;
    widest.stride = 32;
    if (validate(widest).empty()) {
      for (const std::string& line : lines_of(sweep(a, {1, 2, 4, 8, 16, 32})))
        EXPECT_LE(columns(line), 80) << line;
    }
  }
}

TEST(SimSweep, OneRowPerStrideWithTheLessonsNumbers) {
  const std::vector<long long> strides = {1, 2, 4, 8, 16, 32};
  const std::string text = sweep(Access{}, strides);
  const std::vector<std::string> rows = lines_of(text);
  int data_rows = 0;
  for (const std::string& row : rows)
    if (row.find(" | ") != std::string::npos && row.find("stride") == std::string::npos)
      ++data_rows;
  EXPECT_EQ(data_rows, static_cast<int>(strides.size())) << text;
  for (const char* header : {"stride", "sectors", "lines", "moved B", "used B", "efficiency"})
    EXPECT_NE(text.find(header), std::string::npos) << header;
  EXPECT_NE(text.find("      1 |       4 |     1 |     128 |    128 |       100%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("      8 |      32 |     8 |    1024 |    128 |      12.5%"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("     32 |      32 |    32 |    1024 |    128 |      12.5%"),
            std::string::npos)
      << text;
}

TEST(SimSweep, UsesTheBaseParametersAndRejectsABadStride) {
  Access base;
  base.element_bytes = 8;
  const std::string text = sweep(base, {1});
  EXPECT_NE(text.find("8-byte elements"), std::string::npos) << text;
  EXPECT_NE(text.find("|       8 |"), std::string::npos) << text;  // 8 sectors for doubles
  EXPECT_THROW(sweep(Access{}, {1, -2}), std::invalid_argument);
  EXPECT_NE(sweep(Access{}, {}).find("stride"), std::string::npos);  // header only
}

}  // namespace
