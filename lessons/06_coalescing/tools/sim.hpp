/// @file sim.hpp
/// @brief The coalescing simulator behind `grader sim` (this lesson's tool, registered from
/// sim_tool.cpp): the sector model of one warp load. Given how the lanes of a warp index an array
/// (stride, offset, element width), it works out which 32-byte sectors and 128-byte lines the load
/// touches, how many bytes the memory system moves for it and how many of those bytes the warp
/// asked for.
///
/// Units: all sizes and addresses are in bytes, counted from a 128-byte aligned base (address 0).
/// A *sector* is a 32-byte aligned block, sector k = bytes [32k, 32k + 32); a *line* is a 128-byte
/// aligned block, line k = bytes [128k, 128k + 128) = sectors 4k..4k+3. Device memory is moved
/// in whole sectors, so a warp request costs 32 bytes per distinct sector it touches.
///
/// The model is the one the lesson teaches: it ignores caches (every request starts cold) and
/// counts only the sectors of this one request.
#pragma once

#include <string>
#include <vector>

namespace coalescing {  // the lesson's namespace (coalescing.cuh)

/// The coalescing simulator: the sector model of one warp request.
namespace sim {

constexpr int kWarpSize = 32;     ///< threads (lanes) in a warp
constexpr int kSectorBytes = 32;  ///< bytes in a sector, the unit device memory is moved in
constexpr int kLineBytes = 128;   ///< bytes in a cache line (4 sectors)
/// Highest byte the simulator models (exclusive): 2^48 bytes = 256 TiB, far beyond any GPU.
/// Keeps every address and count exact in 64-bit arithmetic.
constexpr unsigned long long kAddressLimit = 1ULL << 48;

/// One warp-wide load `x = a[offset + lane * stride]`, in element units.
struct Access {
  int lanes = 32;         ///< threads of the warp that issue the load, 1..32 (lanes 0..lanes-1)
  long long stride = 1;   ///< elements between neighbouring lanes, >= 0 (0 = broadcast)
  long long offset = 0;   ///< element lane 0 reads, counted from the aligned base, >= 0
  int element_bytes = 4;  ///< width of one element in bytes: 1, 2, 4, 8 or 16
};

/// What one warp request costs. All addresses and indices are relative to the aligned base.
struct Result {
  std::vector<unsigned long long> lane_address;  ///< byte address of each lane's element
  std::vector<unsigned long long> sectors;       ///< distinct sector indices touched, ascending
  std::vector<unsigned long long> lines;         ///< distinct line indices touched, ascending
  unsigned long long bytes_used = 0;   ///< distinct bytes the warp asked for (shared ones once)
  unsigned long long bytes_moved = 0;  ///< bytes moved from memory: 32 * sectors.size()
  double efficiency = 0;               ///< bytes_used / bytes_moved, in 0..1
};

/// Checks an access before it is simulated.
/// @return "" when `a` is valid, otherwise one line that says which parameter is wrong, what
///   values are allowed and what was given, e.g.
///   "element width must be 1, 2, 4, 8 or 16 bytes (got 3)".
std::string validate(const Access& a);

/// The access in the simulator's notation: "a[i]", "a[3 + i*8]", or "a[3]" when every lane reads
/// the same element (stride 0).
std::string expression(const Access& a);

/// Runs the sector model for one warp request.
/// Lane i reads the element at byte address (offset + i * stride) * element_bytes, covering bytes
/// [address, address + element_bytes); a sector or line is touched when any of those bytes lies
/// in it.
/// @pre validate(a) is empty.
/// @throws std::invalid_argument with validate()'s message when it is not.
Result simulate(const Access& a);

/// The same model for arbitrary lane addresses (one per lane, 1..32 lanes, any byte alignment):
/// an element that straddles a sector boundary touches both sectors.
/// @param lane_address byte address of each lane's element
/// @param element_bytes width of every element: 1, 2, 4, 8 or 16
/// @throws std::invalid_argument for no lanes, more than 32, a bad width, or an element that
///   reaches kAddressLimit.
Result simulate_addresses(std::vector<unsigned long long> lane_address, int element_bytes);

/// Draws one request for the terminal, in the style of the lesson's diagram: the load as an
/// expression, the lanes and their byte addresses (the middle elided when they do not fit), the
/// touched sectors as boxes whose cells show the used and wasted bytes (8 sectors a row; with more
/// than 16 sectors only the first and last row are drawn), and the summary lines
/// "moved X B / used Y B = Z%" and "N sectors, M lines per warp request".
/// @param a the access that was simulated
/// @param r simulate(a)
/// @param color true: ANSI colours (green = bytes used, red = bytes moved but not used); false:
///   plain text with UTF-8 box drawing and no escape codes.
/// @return lines of at most 80 columns, each ending in '\n'.
std::string draw(const Access& a, const Result& r, bool color);

/// A table with one row per stride of `strides` (other parameters from `base`): stride, sectors,
/// lines, bytes moved, bytes used and efficiency in percent, under a line naming the fixed
/// parameters.
/// @throws std::invalid_argument when `base` with one of the strides is not valid (the message
///   names the stride).
std::string sweep(const Access& base, const std::vector<long long>& strides);

/// Formats an efficiency (0..1) as a percentage with at most one decimal: "100%", "12.5%",
/// "16.7%". Never rounds a value below 1 up to "100%".
std::string percent(double efficiency);

}  // namespace sim
}  // namespace coalescing
