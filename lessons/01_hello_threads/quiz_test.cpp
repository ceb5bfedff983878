// The answers written in lesson 01_hello_threads's quiz.json, recomputed from the lesson's
// definitions (quiz_pins.hpp explains the pins; grader/tests/quiz_test.cpp fails for a choice or
// numeric question without one, and checks that the quiz parses and matches the manifest).
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- the lesson's definitions (hello_threads.cuh), on the host ----

// An extent (gridDim, blockDim: unspecified dimensions are 1, as for dim3)...
struct Dim {
  long long x = 1, y = 1, z = 1;
  long long volume() const { return x * y * z; }
};
// ... and a position in it (blockIdx, threadIdx: unspecified coordinates are 0).
struct Idx {
  long long x = 0, y = 0, z = 0;
};

// Linear index of (x, y, z) in an extent, x fastest (Programming Guide, "Thread Hierarchy").
long long flatten(Idx at, Dim extent) {
  return at.x + at.y * extent.x + at.z * extent.x * extent.y;
}

long long global_id(Idx block_idx, Dim grid, Idx thread_idx, Dim block) {
  return flatten(block_idx, grid) * block.volume() + flatten(thread_idx, block);
}

constexpr long long kWarp = 32;

// ---- launch limits (Technical Specifications per Compute Capability, 7.5 and newer) ----

// "dim3(a, b)" or "256" -> Dim.
Dim parse_dim(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
  Dim d;
  if (!starts_with(text, "dim3(")) {
    d.x = std::stoll(text);
    return d;
  }
  std::vector<long long> v;
  std::string body = text.substr(5, text.size() - 6), part;
  for (std::size_t at = 0; at <= body.size(); ++at) {
    if (at == body.size() || body[at] == ',') {
      v.push_back(std::stoll(part));
      part.clear();
    } else {
      part += body[at];
    }
  }
  d.x = v.at(0);
  if (v.size() > 1) d.y = v[1];
  if (v.size() > 2) d.z = v[2];
  return d;
}

// "<<<grid, block>>>" -> {grid, block}: split at the comma outside parentheses.
std::pair<Dim, Dim> parse_launch(const std::string& text) {
  const std::size_t open = text.find("<<<"), close = text.find(">>>");
  if (open == std::string::npos || close == std::string::npos)
    throw std::runtime_error("not a launch: " + text);
  const std::string inner = text.substr(open + 3, close - open - 3);
  int depth = 0;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    depth += inner[i] == '(' ? 1 : inner[i] == ')' ? -1 : 0;
    if (inner[i] == ',' && depth == 0)
      return {parse_dim(inner.substr(0, i)), parse_dim(inner.substr(i + 1))};
  }
  throw std::runtime_error("not a launch: " + text);
}

bool launchable(Dim grid, Dim block) {
  const bool grid_ok = grid.x <= (1LL << 31) - 1 && grid.y <= 65535 && grid.z <= 65535;
  const bool block_ok =
      block.x <= 1024 && block.y <= 1024 && block.z <= 64 && block.volume() <= 1024;
  return grid_ok && block_ok;
}

// ---- the pins ----

QUIZ_NUMERIC("global-id-1d") {
  return static_cast<double>(global_id({2}, {4}, {5}, {64}));
}

// <<<3, 4>>> writing out[threadIdx.x]: the elements no thread's index reaches.
QUIZ_NUMERIC("thread-only-unwritten") {
  std::set<long long> written;
  for (long long b = 0; b < 3; ++b)
    for (long long t = 0; t < 4; ++t) written.insert(t);
  return static_cast<double>(3 * 4 - static_cast<long long>(written.size()));
}

// The lane comes from the linear thread index. The question must tell it apart from
// threadIdx.x % 32 (-1, never a lane, when it does not).
QUIZ_NUMERIC("lane-2d") {
  const long long t = flatten({5, 3}, {16, 8});
  if (t % kWarp == 5 % kWarp) return -1;
  return static_cast<double>(t % kWarp);
}

QUIZ_NUMERIC("global-id-2d") {
  return static_cast<double>(global_id({2, 1}, {3, 2}, {5, 3}, {8, 4}));
}

QUIZ_NUMERIC("warps-in-100") {
  std::set<long long> warps;
  for (long long t = 0; t < 100; ++t) warps.insert(t / kWarp);
  return static_cast<double>(warps.size());
}

// Thread 0 of block 1 of <<<2, 48>>>: warps are cut inside the block. The distractor that the
// global id would give must be among the choices.
QUIZ_CHOICE("warp-never-spans-blocks", q) {
  const long long t = flatten({0}, {48}), g = global_id({1}, {2}, {0}, {48});
  if (g != 48) return -1;
  const std::string from_global =
      "Warp " + std::to_string(g / kWarp) + ", lane " + std::to_string(g % kWarp) + ":";
  if (only_choice_starting(q, from_global) < 0) return -1;
  return only_choice_starting(
      q, "Warp " + std::to_string(t / kWarp) + ", lane " + std::to_string(t % kWarp) + ":");
}

// No order between blocks (Thread Hierarchy); one line per thread (Formatted Output) of
// <<<2, 4>>>.
QUIZ_CHOICE("printf-order", q) {
  const std::string lines = "All " + std::to_string(2 * 4) + " lines";
  return only_choice(q, [&](const std::string& c) {
    return contains(c, lines) && contains(c, "order between blocks is not promised");
  });
}

// The one launch over a limit (the others are all launchable; a choice that is no launch fails
// the pin).
QUIZ_CHOICE("grid-limit", q) {
  try {
    return only_choice(q, [](const std::string& c) {
      const auto [grid, block] = parse_launch(c);
      return !launchable(grid, block);
    });
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace
