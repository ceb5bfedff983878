#include "sim.hpp"

#include <fmt/format.h>

#include "course/quiz.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace coalescing::sim {

namespace {

constexpr int kMaxColumns = 80;
constexpr int kCellBytes = 4;  // one drawn cell of a sector box
constexpr int kCellsPerSector = kSectorBytes / kCellBytes;

bool valid_width(int w) {
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16;
}

// Half-open byte ranges [first, second), sorted and disjoint.
using Ranges = std::vector<std::pair<unsigned long long, unsigned long long>>;

Ranges used_ranges(const std::vector<unsigned long long>& addresses, int width) {
  Ranges r;
  for (unsigned long long a : addresses) r.emplace_back(a, a + width);
  std::sort(r.begin(), r.end());
  Ranges merged;
  for (const auto& [lo, hi] : r) {
    if (!merged.empty() && lo <= merged.back().second)
      merged.back().second = std::max(merged.back().second, hi);
    else
      merged.emplace_back(lo, hi);
  }
  return merged;
}

// Bytes of [lo, hi) that some lane asked for.
unsigned long long used_in(const Ranges& used, unsigned long long lo, unsigned long long hi) {
  unsigned long long n = 0;
  for (const auto& [a, b] : used) {
    unsigned long long x = std::max(a, lo), y = std::min(b, hi);
    if (x < y) n += y - x;
  }
  return n;
}

// Number of terminal columns `s` takes (UTF-8 code points; the drawing has no wide characters).
int columns(const std::string& s) {
  int n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

std::string center(const std::string& s, int width) {
  int pad = width - columns(s);
  if (pad <= 0) return s;
  return std::string(pad / 2, ' ') + s + std::string(pad - pad / 2, ' ');
}

std::string plural(unsigned long long n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

struct Style {
  bool color;
  std::string paint(const std::string& s, const char* code) const {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  }
  std::string used(const std::string& s) const { return paint(s, "32"); }     // green
  std::string partial(const std::string& s) const { return paint(s, "33"); }  // yellow
  std::string wasted(const std::string& s) const { return paint(s, "31"); }   // red
  std::string bold(const std::string& s) const { return paint(s, "1"); }
  std::string rating(const std::string& s, double efficiency) const {
    return paint(s, efficiency >= 0.8 ? "1;32" : efficiency >= 0.4 ? "1;33" : "1;31");
  }
};

const char* const kFull = "█";
const char* const kPartial = "▓";
const char* const kEmptyPlain = "·";
const char* const kEmptyColor = "░";

// The lanes and their addresses, eliding the middle lanes when they do not fit.
void draw_lanes(std::string& out, const Result& r) {
  const int lanes = static_cast<int>(r.lane_address.size());
  const std::string lane_label = "  lane ", addr_label = "  addr ";
  int cw = 3;  // "t31"
  for (unsigned long long a : r.lane_address)
    cw = std::max(cw, static_cast<int>(fmt::format("{}", a).size()));
  cw += 1;  // a space between columns
  const int fit = (kMaxColumns - columns(lane_label)) / cw;
  std::vector<int> shown;  // lane numbers, -1 = "..."
  if (lanes <= fit) {
    for (int i = 0; i < lanes; ++i) shown.push_back(i);
  } else {
    const int tail = fit >= 6 ? 2 : 1;
    const int head = std::max(1, fit - 1 - tail);
    for (int i = 0; i < head; ++i) shown.push_back(i);
    shown.push_back(-1);
    for (int i = lanes - tail; i < lanes; ++i) shown.push_back(i);
  }
  std::string l = lane_label, d = addr_label;
  for (int i : shown) {
    l += fmt::format("{:>{}}", i < 0 ? "..." : fmt::format("t{}", i), cw);
    d += fmt::format("{:>{}}", i < 0 ? "..." : fmt::format("{}", r.lane_address[i]), cw);
  }
  out += l + "\n" + d + "\n";
}

// One row of sector boxes with their labels.
void draw_sector_row(std::string& out, const std::vector<unsigned long long>& row,
                     const Ranges& used, int inner, const Style& st, bool& any_partial) {
  const std::string indent = "  ";
  const std::string bar = repeat("─", inner);
  std::string top = indent + "┌", mid = indent + "│", bottom = indent + "└";
  std::string index = indent, usage = indent;
  for (size_t k = 0; k < row.size(); ++k) {
    const bool last = k + 1 == row.size();
    top += bar + (last ? "┐" : "┬");
    bottom += bar + (last ? "┘" : "┴");
    const unsigned long long base = row[k] * kSectorBytes;
    std::string cells;
    for (int c = 0; c < kCellsPerSector; ++c) {
      const unsigned long long lo = base + c * kCellBytes;
      const unsigned long long n = used_in(used, lo, lo + kCellBytes);
      if (n == kCellBytes) {
        cells += st.used(kFull);
      } else if (n > 0) {
        cells += st.partial(kPartial);
        any_partial = true;
      } else {
        cells += st.wasted(st.color ? kEmptyColor : kEmptyPlain);
      }
    }
    const int pad = inner - kCellsPerSector;
    mid += std::string(pad / 2, ' ') + cells + std::string(pad - pad / 2, ' ') + "│";
    index += " " + center(fmt::format("s{}", row[k]), inner);
    usage +=
        " " + center(fmt::format("{}/{} B", used_in(used, base, base + kSectorBytes), kSectorBytes),
                     inner);
  }
  auto trim = [](std::string s) { return s.erase(s.find_last_not_of(' ') + 1); };
  out += top + "\n" + mid + "\n" + bottom + "\n" + trim(index) + "\n" + trim(usage) + "\n";
}

}  // namespace

std::string expression(const Access& a) {
  std::string index;
  if (a.stride == 0) {
    index = fmt::format("{}", a.offset);
  } else {
    index = a.stride == 1 ? "i" : fmt::format("i*{}", a.stride);
    if (a.offset != 0) index = fmt::format("{} + {}", a.offset, index);
  }
  return "a[" + index + "]";
}

std::string validate(const Access& a) {
  if (a.lanes < 1 || a.lanes > kWarpSize)
    return fmt::format("lanes must be between 1 and {} (a warp has {} threads); got {}", kWarpSize,
                       kWarpSize, a.lanes);
  if (!valid_width(a.element_bytes))
    return fmt::format("element width must be 1, 2, 4, 8 or 16 bytes (got {})", a.element_bytes);
  if (a.stride < 0)
    return fmt::format(
        "stride must be 0 or more elements (0 = every lane reads the same element); got {}",
        a.stride);
  if (a.offset < 0)
    return fmt::format("offset must be 0 or more elements from the aligned base; got {}", a.offset);
  // Every element must end at or below kAddressLimit: offset + (lanes-1)*stride < limit/width.
  const unsigned long long elements = kAddressLimit / a.element_bytes;
  const auto offset = static_cast<unsigned long long>(a.offset);
  if (offset >= elements)
    return fmt::format("offset too large: at most {} for {}-byte elements (got {})", elements - 1,
                       a.element_bytes, a.offset);
  if (a.lanes > 1) {
    const unsigned long long max_stride = (elements - 1 - offset) / (a.lanes - 1);
    if (static_cast<unsigned long long>(a.stride) > max_stride)
      return fmt::format(
          "stride too large: at most {} with this offset, width and lane count (got {})",
          max_stride, a.stride);
  }
  return "";
}

Result simulate_addresses(std::vector<unsigned long long> lane_address, int element_bytes) {
  if (lane_address.empty() || lane_address.size() > static_cast<size_t>(kWarpSize))
    throw std::invalid_argument(fmt::format("a warp request needs 1 to {} lane addresses (got {})",
                                            kWarpSize, lane_address.size()));
  if (!valid_width(element_bytes))
    throw std::invalid_argument(
        fmt::format("element width must be 1, 2, 4, 8 or 16 bytes (got {})", element_bytes));
  for (unsigned long long addr : lane_address)
    if (addr >= kAddressLimit || kAddressLimit - addr < static_cast<unsigned>(element_bytes))
      throw std::invalid_argument(fmt::format(
          "address {} with {}-byte elements reaches past byte 2^48", addr, element_bytes));

  Result r;
  r.lane_address = std::move(lane_address);
  for (unsigned long long addr : r.lane_address) {
    const unsigned long long first = addr / kSectorBytes;
    const unsigned long long last = (addr + element_bytes - 1) / kSectorBytes;
    for (unsigned long long s = first; s <= last; ++s) r.sectors.push_back(s);
  }
  std::sort(r.sectors.begin(), r.sectors.end());
  r.sectors.erase(std::unique(r.sectors.begin(), r.sectors.end()), r.sectors.end());
  constexpr unsigned long long kSectorsPerLine = kLineBytes / kSectorBytes;
  for (unsigned long long s : r.sectors) {
    const unsigned long long line = s / kSectorsPerLine;
    if (r.lines.empty() || r.lines.back() != line) r.lines.push_back(line);  // sectors are sorted
  }
  for (const auto& [lo, hi] : used_ranges(r.lane_address, element_bytes)) r.bytes_used += hi - lo;
  r.bytes_moved = kSectorBytes * r.sectors.size();
  r.efficiency = static_cast<double>(r.bytes_used) / static_cast<double>(r.bytes_moved);
  return r;
}

Result simulate(const Access& a) {
  if (std::string why = validate(a); !why.empty()) throw std::invalid_argument(why);
  std::vector<unsigned long long> addresses;
  for (int i = 0; i < a.lanes; ++i)
    addresses.push_back(static_cast<unsigned long long>(a.offset + i * a.stride) *
                        static_cast<unsigned long long>(a.element_bytes));
  return simulate_addresses(std::move(addresses), a.element_bytes);
}

std::string percent(double efficiency) {
  return course::quiz::format_percent(efficiency * 100.0);
}

std::string draw(const Access& a, const Result& r, bool color) {
  const Style st{color};
  std::string out;

  if (a.stride == 0 && r.lane_address.size() > 1)
    out += fmt::format("every lane reads {} (broadcast)   {}, {}-byte elements\n", expression(a),
                       plural(r.lane_address.size(), "lane"), a.element_bytes);
  else
    out += fmt::format("lane i reads {}   {}, {}-byte elements\n", expression(a),
                       plural(r.lane_address.size(), "lane"), a.element_bytes);
  out += "\n";
  draw_lanes(out, r);
  out += "\n";

  // Sector boxes, a row of up to 8; with more than two rows' worth, the first and last row only.
  int inner = kCellsPerSector;
  for (unsigned long long s : r.sectors) inner = std::max(inner, columns(fmt::format("s{}", s)));
  const int per_row = std::max(1, std::min(8, (kMaxColumns - 3) / (inner + 1)));
  const int n = static_cast<int>(r.sectors.size());
  const Ranges used = used_ranges(r.lane_address, a.element_bytes);
  bool any_partial = false;
  auto row = [&](int from, int to) {
    std::vector<unsigned long long> v(r.sectors.begin() + from, r.sectors.begin() + to);
    draw_sector_row(out, v, used, inner, st, any_partial);
  };
  if (n <= 2 * per_row) {
    for (int i = 0; i < n; i += per_row) row(i, std::min(n, i + per_row));
  } else {
    row(0, per_row);
    out += fmt::format("  ... {} more sectors not drawn (s{} .. s{}) ...\n", n - 2 * per_row,
                       r.sectors[per_row], r.sectors[n - per_row - 1]);
    row(n - per_row, n);
  }
  out += fmt::format("  {} used   ", st.used(kFull));
  if (any_partial) out += fmt::format("{} partly used   ", st.partial(kPartial));
  out += fmt::format("{} moved, not used   (a cell is {} bytes)\n",
                     st.wasted(color ? kEmptyColor : kEmptyPlain), kCellBytes);
  out += "\n";

  out += fmt::format("  moved {} B / used {} B = {}\n", r.bytes_moved, r.bytes_used,
                     st.rating(percent(r.efficiency), r.efficiency));
  out += fmt::format("  {}, {} per warp request\n", st.bold(plural(r.sectors.size(), "sector")),
                     plural(r.lines.size(), "line"));
  const unsigned long long ideal = (r.bytes_used + kSectorBytes - 1) / kSectorBytes;
  if (ideal < r.sectors.size())
    out += fmt::format("  the same {} B packed contiguously and aligned: {}\n", r.bytes_used,
                       plural(ideal, "sector"));
  return out;
}

std::string sweep(const Access& base, const std::vector<long long>& strides) {
  struct Row {
    std::string cells[6];
  };
  const char* const headers[6] = {"stride", "sectors", "lines", "moved B", "used B", "efficiency"};
  std::vector<Row> rows;
  for (long long stride : strides) {
    Access a = base;
    a.stride = stride;
    if (std::string why = validate(a); !why.empty())
      throw std::invalid_argument(fmt::format("stride {}: {}", stride, why));
    const Result r = simulate(a);
    rows.push_back({{fmt::format("{}", stride), fmt::format("{}", r.sectors.size()),
                     fmt::format("{}", r.lines.size()), fmt::format("{}", r.bytes_moved),
                     fmt::format("{}", r.bytes_used), percent(r.efficiency)}});
  }
  int width[6];
  for (int c = 0; c < 6; ++c) {
    width[c] = columns(headers[c]);
    for (const Row& row : rows) width[c] = std::max(width[c], columns(row.cells[c]));
  }
  std::string out = fmt::format("stride sweep: {}, {}-byte elements, offset {}\n\n",
                                plural(base.lanes, "lane"), base.element_bytes, base.offset);
  std::string line;
  for (int c = 0; c < 6; ++c)
    line += fmt::format("{}{:>{}}", c ? " | " : " ", headers[c], width[c]);
  out += line + "\n";
  line.clear();
  for (int c = 0; c < 6; ++c) line += (c ? "-+-" : "-") + std::string(width[c], '-');
  out += line + "\n";
  for (const Row& row : rows) {
    line.clear();
    for (int c = 0; c < 6; ++c)
      line += fmt::format("{}{:>{}}", c ? " | " : " ", row.cells[c], width[c]);
    out += line + "\n";
  }
  return out;
}

}  // namespace coalescing::sim
