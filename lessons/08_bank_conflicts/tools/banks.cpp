#include "banks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <utility>

namespace bank_conflicts::banks {

namespace {

constexpr int kMaxColumns = 80;

bool power_of_two(int v) {
  return v > 0 && (v & (v - 1)) == 0;
}

const char* type_name(int element_bytes) {
  return element_bytes == 8 ? "double" : "float";
}

std::string plural(long long n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// Number of terminal columns `s` takes (UTF-8 code points; the drawing has no wide characters).
int columns(const std::string& s) {
  int n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// "t0", "t0-t15", "t0 t16": lanes (ascending) as runs.
std::string lane_runs(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += " ";
    out += j == i ? fmt::format("t{}", lanes[i]) : fmt::format("t{}-t{}", lanes[i], lanes[j]);
    i = j + 1;
  }
  return out;
}

struct Style {
  bool color;
  std::string paint(const std::string& s, const char* code) const {
    return color ? fmt::format("\x1b[{}m{}\x1b[0m", code, s) : s;
  }
  std::string one(const std::string& s) const { return paint(s, "32"); }   // green
  std::string many(const std::string& s) const { return paint(s, "36"); }  // cyan: broadcast
  std::string idle(const std::string& s) const { return paint(s, "2"); }   // dim
  std::string bold(const std::string& s) const { return paint(s, "1"); }
  std::string rating(const std::string& s, bool ok) const { return paint(s, ok ? "1;32" : "1;31"); }
};

const char* const kOne = "█";
const char* const kMany = "▓";
const char* const kIdle = "·";

// The lanes, their word addresses and banks, eliding the middle lanes when they do not fit.
void draw_lanes(std::string& out, const Result& r, int element_bytes) {
  const int n = static_cast<int>(r.lanes.size());
  const std::string lane_label = "  lane ", word_label = "  word ", bank_label = "  bank ";
  auto bank_text = [&](const Lane& l) {
    return element_bytes == 8 ? fmt::format("{}+{}", l.bank, (l.bank + 1) % kBanks)
                              : fmt::format("{}", l.bank);
  };
  int cw = 3;
  for (const Lane& l : r.lanes) {
    cw = std::max(cw, static_cast<int>(fmt::format("{}", l.address / kBankBytes).size()));
    cw = std::max(cw, static_cast<int>(bank_text(l).size()));
  }
  cw += 1;
  const int fit = (kMaxColumns - columns(lane_label)) / cw;
  std::vector<int> shown;  // lane positions, -1 = "..."
  if (n <= fit) {
    for (int i = 0; i < n; ++i) shown.push_back(i);
  } else {
    const int tail = fit >= 6 ? 2 : 1;
    const int head = std::max(1, fit - 1 - tail);
    for (int i = 0; i < head; ++i) shown.push_back(i);
    shown.push_back(-1);
    for (int i = n - tail; i < n; ++i) shown.push_back(i);
  }
  std::string l = lane_label, w = word_label, b = bank_label;
  for (int i : shown) {
    if (i < 0) {
      l += fmt::format("{:>{}}", "...", cw);
      w += fmt::format("{:>{}}", "...", cw);
      b += fmt::format("{:>{}}", "...", cw);
      continue;
    }
    const Lane& x = r.lanes[i];
    l += fmt::format("{:>{}}", fmt::format("t{}", x.lane), cw);
    w += fmt::format("{:>{}}", x.address / kBankBytes, cw);
    b += fmt::format("{:>{}}", bank_text(x), cw);
  }
  out += l + "\n" + w + "\n" + b + "\n";
}

// One wavefront: 32 bank cells in groups of 8, then the lanes it serves.
std::string wavefront_row(const Wavefront& w, int number, const Style& st) {
  std::string cells;
  std::vector<int> served;
  for (int bank = 0; bank < kBanks; ++bank) {
    if (bank > 0 && bank % 8 == 0) cells += " ";
    const std::vector<int>& lanes = w.lanes_by_bank[bank];
    if (lanes.empty())
      cells += st.idle(kIdle);
    else
      cells += lanes.size() == 1 ? st.one(kOne) : st.many(kMany);
    served.insert(served.end(), lanes.begin(), lanes.end());
  }
  std::sort(served.begin(), served.end());
  served.erase(std::unique(served.begin(), served.end()), served.end());
  return fmt::format("  {:<8}{}   {}\n", fmt::format("wave {}", number), cells, lane_runs(served));
}

}  // namespace

bool parse_pattern(const std::string& text, Pattern& out) {
  if (text == "row")
    out = Pattern::row;
  else if (text == "column")
    out = Pattern::column;
  else if (text == "swizzled")
    out = Pattern::swizzled;
  else if (text == "broadcast")
    out = Pattern::broadcast;
  else
    return false;
  return true;
}

std::string pattern_name(Pattern p) {
  switch (p) {
    case Pattern::row:
      return "row";
    case Pattern::column:
      return "column";
    case Pattern::swizzled:
      return "swizzled";
    case Pattern::broadcast:
      return "broadcast";
  }
  return "?";
}

std::string validate(const Access& a) {
  if (a.element_bytes != 4 && a.element_bytes != 8)
    return fmt::format("element width must be 4 or 8 bytes (got {})", a.element_bytes);
  if (a.lanes < 1 || a.lanes > kWarpSize)
    return fmt::format("lanes must be between 1 and {} (a warp has {} threads); got {}", kWarpSize,
                       kWarpSize, a.lanes);
  if (a.row_elements < 1 || a.row_elements > kMaxElements)
    return fmt::format("row length must be 1 to {} elements (got {})", kMaxElements,
                       a.row_elements);
  if (a.pad < 0 || a.pad > kMaxElements)
    return fmt::format("padding must be 0 to {} elements (got {})", kMaxElements, a.pad);
  if (a.index < 0) return fmt::format("index must be 0 or more (got {})", a.index);
  if (a.pattern == Pattern::row) {
    if (a.lanes > a.row_elements)
      return fmt::format(
          "a row of {} elements has room for {} lanes reading along it, not {} (give --lanes or "
          "a longer --row)",
          a.row_elements, a.row_elements, a.lanes);
    if (a.index >= kMaxElements)
      return fmt::format("row index must be below {} (got {})", kMaxElements, a.index);
  } else if (a.index >= a.row_elements) {
    return fmt::format("column index must be below the row length {} (got {})", a.row_elements,
                       a.index);
  }
  if (a.pattern == Pattern::swizzled && !power_of_two(a.row_elements))
    return fmt::format(
        "the XOR swizzle needs a power-of-two row length, so that column ^ row stays inside the "
        "row (got {})",
        a.row_elements);
  return "";
}

namespace {

// "float tile[32][32 + 1]" (the rows a pattern needs: 32, or index + 1 for a row read).
std::string declaration(const Access& a, const std::string& pad) {
  const int rows = a.pattern == Pattern::row ? std::max(a.index + 1, kWarpSize) : kWarpSize;
  return fmt::format("{} tile[{}][{}{}]", type_name(a.element_bytes), rows, a.row_elements, pad);
}

// "lane i reads tile[i][0]".
std::string reading(const Access& a) {
  switch (a.pattern) {
    case Pattern::row:
      return fmt::format("lane i reads tile[{}][i]", a.index);
    case Pattern::column:
      return fmt::format("lane i reads tile[i][{}]", a.index);
    case Pattern::swizzled: {  // the column simulate() computes: index ^ (i % row length)
      const std::string lane =
          a.row_elements < kWarpSize ? fmt::format("(i % {})", a.row_elements) : std::string("i");
      return fmt::format("lane i reads element (i, {}), stored at tile[i][{} ^ {}]", a.index,
                         a.index, lane);
    }
    case Pattern::broadcast:
      return fmt::format("every lane reads tile[0][{}]", a.index);
  }
  return "";
}

}  // namespace

std::string expression(const Access& a) {
  return declaration(a, a.pad ? fmt::format(" + {}", a.pad) : "") + "; " + reading(a);
}

Result simulate(const Access& a) {
  if (std::string why = validate(a); !why.empty()) throw std::invalid_argument(why);
  Result r;
  const int words_per_element = a.element_bytes / kBankBytes;
  const long long pitch = static_cast<long long>(a.row_elements) + a.pad;
  r.phases = (a.element_bytes == 8 && a.lanes > kWarpSize / 2) ? 2 : 1;
  for (int i = 0; i < a.lanes; ++i) {
    Lane l;
    l.lane = i;
    if (a.pattern == Pattern::row) {
      l.row = a.index;
      l.col = i;
      l.stored_col = i;
    } else if (a.pattern == Pattern::broadcast) {
      l.row = 0;
      l.col = a.index;
      l.stored_col = a.index;
    } else {
      l.row = i;
      l.col = a.index;
      l.stored_col = a.pattern == Pattern::swizzled ? (a.index ^ (i % a.row_elements)) : a.index;
    }
    l.address = static_cast<unsigned long long>(l.row * pitch + l.stored_col) * a.element_bytes;
    l.bank = static_cast<int>((l.address / kBankBytes) % kBanks);
    l.phase = a.element_bytes == 8 ? i / (kWarpSize / 2) : 0;
    r.lanes.push_back(l);
  }
  r.ways = 0;
  r.ideal = 0;
  for (int phase = 0; phase < r.phases; ++phase) {
    // bank -> its distinct words in order of first request, each with the lanes asking for it
    std::vector<std::vector<std::pair<unsigned long long, std::vector<int>>>> words(kBanks);
    bool any = false;
    for (const Lane& l : r.lanes) {
      if (l.phase != phase) continue;
      any = true;
      for (int k = 0; k < words_per_element; ++k) {
        const unsigned long long word = l.address / kBankBytes + k;
        const int bank = static_cast<int>(word % kBanks);
        auto& list = words[bank];
        auto it =
            std::find_if(list.begin(), list.end(), [&](const auto& w) { return w.first == word; });
        if (it == list.end())
          list.push_back({word, {l.lane}});
        else if (it->second.back() != l.lane)
          it->second.push_back(l.lane);
        auto& touching = r.lanes_by_bank[bank];
        if (std::find(touching.begin(), touching.end(), l.lane) == touching.end())
          touching.push_back(l.lane);
      }
    }
    if (!any) continue;
    ++r.ideal;
    std::size_t passes = 0;
    for (const auto& list : words) passes = std::max(passes, list.size());
    r.ways = std::max(r.ways, static_cast<int>(passes));
    for (std::size_t p = 0; p < passes; ++p) {
      Wavefront w;
      w.phase = phase;
      for (int bank = 0; bank < kBanks; ++bank)
        if (p < words[bank].size()) w.lanes_by_bank[bank] = words[bank][p].second;
      r.wavefronts.push_back(std::move(w));
    }
  }
  for (auto& lanes : r.lanes_by_bank) std::sort(lanes.begin(), lanes.end());
  return r;
}

std::string draw(const Access& a, const Result& r, bool color) {
  const Style st{color};
  std::string out = fmt::format("{}\n", expression(a));
  out += fmt::format("  {}, {}-byte elements, rows of {} B; bank = (byte address / 4) % 32\n\n",
                     plural(a.lanes, "lane"), a.element_bytes,
                     (static_cast<long long>(a.row_elements) + a.pad) * a.element_bytes);
  draw_lanes(out, r, a.element_bytes);
  out += "\n";

  // Bank numbers above their cells: bank b sits at column b + b / 8 of the cell run.
  std::string numbers(kBanks + kBanks / 8, ' ');
  for (int b : {0, 8, 16, 24, 31}) {
    const std::string label = fmt::format("{}", b);
    const int at = b + b / 8 + 1 - static_cast<int>(label.size());
    numbers.replace(at, label.size(), label);
  }
  out += fmt::format("  {:<8}{}\n", "bank", numbers.substr(0, numbers.find_last_not_of(' ') + 1));
  for (int phase = 0; phase < r.phases; ++phase) {
    std::vector<const Wavefront*> waves;
    for (const Wavefront& w : r.wavefronts)
      if (w.phase == phase) waves.push_back(&w);
    if (r.phases == 2)
      out += fmt::format("  half-warp {} (lanes {}-{}): {}\n", phase + 1, phase * 16,
                         std::min(a.lanes, phase * 16 + 16) - 1, plural(waves.size(), "wavefront"));
    const int n = static_cast<int>(waves.size());
    for (int i = 0; i < n; ++i) {
      if (n > 8 && i == 3) {
        out += fmt::format("  ... {} more wavefronts, one word per bank each ...\n", n - 5);
        i = n - 3;
        continue;
      }
      out += wavefront_row(*waves[i], i + 1, st);
    }
  }
  out += fmt::format(
      "  {} a word for one lane   {} one word for several lanes (broadcast)   {} idle\n\n",
      st.one(kOne), st.many(kMany), st.idle(kIdle));

  // Banks asked for several different words in one pass: the conflicts.
  std::vector<std::string> conflicts;
  for (int phase = 0; phase < r.phases; ++phase)
    for (int bank = 0; bank < kBanks; ++bank) {
      std::vector<int> lanes;
      int words = 0;
      for (const Wavefront& w : r.wavefronts)
        if (w.phase == phase && !w.lanes_by_bank[bank].empty()) {
          ++words;
          lanes.insert(lanes.end(), w.lanes_by_bank[bank].begin(), w.lanes_by_bank[bank].end());
        }
      if (words < 2) continue;
      std::sort(lanes.begin(), lanes.end());
      conflicts.push_back(fmt::format(
          "  bank {}{}: {} ask for {} different words", bank,
          r.phases == 2 ? fmt::format(" (half-warp {})", phase + 1) : "", lane_runs(lanes), words));
    }
  if (conflicts.empty()) {
    out += "  no bank is asked for two different words in one pass\n";
  } else {
    const std::size_t shown = std::min<std::size_t>(conflicts.size(), 4);
    for (std::size_t i = 0; i < shown; ++i) out += conflicts[i] + "\n";
    if (conflicts.size() > shown)
      out += fmt::format("  ... and {} more banks like these\n", conflicts.size() - shown);
  }
  out += "\n";

  const int waves = r.wavefront_count();
  const std::string per = fmt::format("{} per warp request", plural(waves, "wavefront"));
  const std::string half = r.phases == 2 ? ", one per half-warp" : "";
  if (r.ways <= 1)
    out += fmt::format("  {}: {}{}\n", st.rating("conflict-free", true), per,
                       r.phases == 2 ? " (one per half-warp)" : "");
  else
    out += fmt::format("  {}: {} (conflict-free: {}{})\n",
                       st.rating(fmt::format("{}-way bank conflict", r.ways), false), per, r.ideal,
                       half);
  return out;
}

std::string sweep(const Access& base, const std::vector<int>& pads) {
  const char* const headers[4] = {"pad", "row bytes", "ways", "wavefronts"};
  std::vector<std::array<std::string, 4>> rows;
  for (int pad : pads) {
    Access a = base;
    a.pad = pad;
    if (std::string why = validate(a); !why.empty())
      throw std::invalid_argument(fmt::format("pad {}: {}", pad, why));
    const Result r = simulate(a);
    rows.push_back(
        {fmt::format("{}", pad),
         fmt::format("{}", (static_cast<long long>(a.row_elements) + pad) * a.element_bytes),
         r.ways <= 1 ? std::string("none") : fmt::format("{}-way", r.ways),
         fmt::format("{}", r.wavefront_count())});
  }
  int width[4];
  for (int c = 0; c < 4; ++c) {
    width[c] = columns(headers[c]);
    for (const auto& row : rows) width[c] = std::max(width[c], columns(row[c]));
  }
  std::string out =
      fmt::format("padding sweep: {}; {} ({} access), {}\n\n", declaration(base, " + pad"),
                  reading(base), pattern_name(base.pattern), plural(base.lanes, "lane"));
  std::string line;
  for (int c = 0; c < 4; ++c)
    line += fmt::format("{}{:>{}}", c ? " | " : " ", headers[c], width[c]);
  out += line + "\n";
  line.clear();
  for (int c = 0; c < 4; ++c) line += (c ? "-+-" : "-") + std::string(width[c], '-');
  out += line + "\n";
  for (const auto& row : rows) {
    line.clear();
    for (int c = 0; c < 4; ++c) line += fmt::format("{}{:>{}}", c ? " | " : " ", row[c], width[c]);
    out += line + "\n";
  }
  return out;
}

}  // namespace bank_conflicts::banks
