/// @file banks.hpp
/// @brief The bank model behind `grader banks` (this lesson's tool, registered from
/// banks_tool.cpp): which banks one warp's shared-memory access touches, which lanes share a
/// bank, the n-way conflict and the wavefronts the request takes.
///
/// The model is the lesson's (README section 2, WARMUP §7.2-7.4 and §7.9):
/// - Shared memory has 32 banks of 4 bytes; byte address `addr` is in bank `(addr / 4) % 32`
///   (CUDA C++ Programming Guide, "Compute Capabilities", the Shared Memory section of compute
///   capability 5.x, which later capabilities refer back to).
/// - Lanes that read the same 32-bit word share it (a broadcast): no conflict.
/// - 4-byte elements: the warp's request is served in as many passes (wavefronts) as the busiest
///   bank has different words asked of it.
/// - 8-byte elements: a warp asks for up to 256 bytes, twice what 32 banks deliver in one pass,
///   so the request is served as two half-warps (lanes 0-15, then 16-31), each like a 4-byte
///   request in which every lane asks for two consecutive words (two banks). Conflict-free is 2
///   wavefronts, one per half-warp. The Programming Guide's 5.x section describes 32-bit banks
///   only; this split is the course's model, checked by timing in tools/probes/08_calibrate.cu
///   (docs/measured/H200.md, lesson 08) and readable in Nsight Compute's wavefront counter.
///
/// The array is a 2-D tile `T tile[R][row_elements + pad]` starting at shared address 0; lane i
/// of the warp accesses one element of it, chosen by the pattern.
#pragma once

#include <string>
#include <vector>

namespace bank_conflicts {  // the lesson's namespace (bank_conflicts.cuh)

/// The bank model of one warp's shared-memory access.
namespace banks {

constexpr int kBanks = 32;          ///< banks of shared memory
constexpr int kBankBytes = 4;       ///< bytes one bank delivers per pass
constexpr int kWarpSize = 32;       ///< lanes in a warp
constexpr int kMaxElements = 4096;  ///< largest row length or padding the model accepts

/// How the lanes of the warp index the tile.
enum class Pattern {
  row,        ///< lane i reads tile[index][i]: along a row
  column,     ///< lane i reads tile[i][index]: down a column
  swizzled,   ///< lane i reads logical element (i, index), stored at tile[i][index ^ i]
  broadcast,  ///< every lane reads tile[0][index]: one word for the whole warp
};

/// One warp-wide access of a 2-D shared tile.
struct Access {
  int element_bytes = 4;              ///< 4 (float, int) or 8 (double, long long)
  int row_elements = 32;              ///< elements of data per row, 1..kMaxElements
  int pad = 0;                        ///< unused elements after each row, 0..kMaxElements
  Pattern pattern = Pattern::column;  ///< how the lanes index the tile
  int index = 0;   ///< the row (pattern row) or column (the others) the warp reads, >= 0
  int lanes = 32;  ///< active lanes 0..lanes-1, 1..32
};

/// Where one lane's element lives.
struct Lane {
  int lane = 0;        ///< lane number
  int row = 0;         ///< logical row of the element
  int col = 0;         ///< logical column of the element
  int stored_col = 0;  ///< column it is stored at (differs from col when swizzled)
  unsigned long long address =
      0;          ///< byte address: (row * (row_elements + pad) + stored_col) * element_bytes
  int bank = 0;   ///< bank of its first byte; an 8-byte element also covers bank + 1
  int phase = 0;  ///< 0, or 1 for lanes 16-31 of an 8-byte access (second half-warp)
};

/// One pass (a wavefront) of one phase: which lane's word each bank delivers.
struct Wavefront {
  int phase = 0;  ///< the half-warp it serves (0 for 4-byte elements)
  /// For each bank, the lanes served by it in this pass (several lanes = one word broadcast);
  /// empty when the bank is idle.
  std::vector<std::vector<int>> lanes_by_bank = std::vector<std::vector<int>>(kBanks);
};

/// What the access costs.
struct Result {
  std::vector<Lane> lanes;            ///< every active lane, in lane order
  std::vector<Wavefront> wavefronts;  ///< the passes, phase by phase
  int phases = 1;                     ///< 1 (4-byte) or 2 (8-byte with more than 16 lanes)
  int ways = 1;   ///< degree of conflict: the most different words one bank serves in a phase
  int ideal = 1;  ///< the fewest wavefronts these lanes could take: one per phase used
  /// For each bank, the lanes that touch it (all phases); a lane appears once per bank.
  std::vector<std::vector<int>> lanes_by_bank = std::vector<std::vector<int>>(kBanks);
  /// Wavefronts the request takes (all phases).
  int wavefront_count() const { return static_cast<int>(wavefronts.size()); }
};

/// "" when `a` can be modelled, otherwise one line naming the parameter, the allowed values and
/// the value given.
std::string validate(const Access& a);

/// The access in C: "float tile[32][33]; lane i reads tile[i][0]".
std::string expression(const Access& a);

/// Runs the bank model. @throws std::invalid_argument with validate()'s message when invalid.
Result simulate(const Access& a);

/// Draws one access for the terminal, as `grader sim` draws sectors: the lanes with their word
/// addresses and banks, then the wavefronts as rows of 32 bank cells (a mark where the bank
/// delivers a word), the banks shared by several lanes, and the summary line
/// "N-way bank conflict: W wavefronts per warp request (conflict-free: I)".
std::string draw(const Access& a, const Result& r, bool color);

/// A table over paddings `pads` for the access `base` (its pad ignored): pad, row bytes, ways,
/// wavefronts.
std::string sweep(const Access& base, const std::vector<int>& pads);

/// Parses "row", "column", "swizzled" or "broadcast". @return false for anything else.
bool parse_pattern(const std::string& text, Pattern& out);
/// The pattern's name as parse_pattern() reads it.
std::string pattern_name(Pattern p);

}  // namespace banks

}  // namespace bank_conflicts
