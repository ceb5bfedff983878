// The answers written in lesson 10_reduction's quiz.json, recomputed (quiz_pins.hpp explains the
// pins): the launcher's team and part rules with the header's constants, arg_max_key's order map
// on real float bits, a thread's tie rule, the tiles and the chain of the deterministic sum. The
// Quiz10Facts tests check claims of the lesson's text beyond the answers (the naive float loop
// against the error bound).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

// A value of the header lessons/10_reduction/reduction.cuh, `constexpr int NAME = value;` (the
// header needs nvcc; its constants are read as text).
int header_constant(const std::string& name) {
  std::ifstream in(std::string(COURSE_SOURCE_DIR) + "/lessons/10_reduction/reduction.cuh");
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str(), key = "constexpr int " + name + " = ";
  const std::size_t at = s.find(key);
  if (at == std::string::npos) throw std::runtime_error("no " + name + " in reduction.cuh");
  const std::string rest = s.substr(at + key.size());
  // "8 * BLOCK_THREADS;" as well as "1024;"
  const std::size_t times = rest.find(" * ");
  const std::size_t end = rest.find(';');
  if (times != std::string::npos && times < end)
    return std::stoi(rest.substr(0, times)) *
           header_constant(rest.substr(times + 3, end - times - 3));
  return std::stoi(rest.substr(0, end));
}

// The rule of row_team_lanes: the smallest power of two >= cols, at most a warp.
int team_lanes(long long cols) {
  int lanes = 1;
  while (lanes < header_constant("WARP_SIZE") && lanes < cols) lanes *= 2;
  return lanes;
}

// The rule of row_parts: one wave of blocks, rows x parts <= WIDE_BLOCKS_PER_SM x SMs.
long long parts(long long rows, long long cols, int sms) {
  const long long wanted = header_constant("WIDE_BLOCKS_PER_SM") * 1LL * sms / rows;
  const long long most =
      (cols + header_constant("MIN_PART_COLS") - 1) / header_constant("MIN_PART_COLS");
  const long long p = wanted < most ? wanted : most;
  return p < 1 ? 1 : p;
}

std::uint32_t bits(float v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The high half of arg_max_key.
std::uint32_t ordered(float v) {
  const std::uint32_t b = bits(v);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

long long tiles(long long n) {
  const int tile = header_constant("SUM_TILE");
  return (n + tile - 1) / tile;
}

// ---- the pins ----

QUIZ_NUMERIC("team-lanes") {
  return header_constant("BLOCK_THREADS") / team_lanes(5);
}

QUIZ_NUMERIC("parts-per-row") {
  return static_cast<double>(parts(64, 1LL << 20, 132));
}

QUIZ_NUMERIC("minus-inf-key") {
  return ordered(-INFINITY);
}

QUIZ_CHOICE("raw-bits-order", q) {
  const float candidates[] = {INFINITY, 1.0f, -1.0f, -INFINITY};
  std::uint32_t best = 0;
  float largest = 0;
  for (float c : candidates)
    if (bits(c) > best) {
      best = bits(c);
      largest = c;
    }
  if (largest != -INFINITY) return -1;
  return only_choice_starting(q, "-INFINITY");
}

QUIZ_NUMERIC("tie-rule") {
  // default_blocks at 2^26 on an H200: BLOCKS_PER_SM x 132 SMs blocks of BLOCK_THREADS.
  const long long stride =
      header_constant("BLOCKS_PER_SM") * 132LL * header_constant("BLOCK_THREADS");
  const long long index[] = {3, 3 + stride, 3 + 2 * stride, 3 + 3 * stride};
  const float value[] = {7, 9, 9, 4};
  long long kept = -1;
  float best = -INFINITY;
  for (int k = 0; k < 4; ++k)
    if (kept < 0 || value[k] >= best) {
      best = value[k];
      kept = index[k];
    }
  return static_cast<double>(kept);
}

QUIZ_NUMERIC("tiles-read") {
  return static_cast<double>(tiles(1LL << 26));
}

QUIZ_NUMERIC("chain-links") {
  // A whole tile: a float4 per link after its own 2 levels; the block's tree; pass 2's share of
  // the partials per thread; the tree again.
  const int threads = header_constant("BLOCK_THREADS");
  const long long t = tiles(1LL << 26);
  return header_constant("SUM_QUADS_PER_THREAD") + 2 + std::log2(threads) +
         (t + threads - 1) / threads + std::log2(threads);
}

QUIZ_CHOICE("atomics-bits", q) {
  // Three floats whose two orders of addition round differently: the premise of the answer.
  const float a = 1.0f, b = std::ldexp(1.0f, -24), c = b;  // 1 + 2^-24 rounds back to 1
  if ((a + b) + c == a + (b + c)) return -1;
  return only_choice_starting(q, "the blocks' atomicAdds reach *out in the order");
}

// ---- facts beyond the answers ----

// The order map is monotonic on a ladder of floats from -inf to +inf (the header's doc and the
// lesson's "-inf < -1 < -0 < +0 < 1 < +inf").
TEST(Quiz10Facts, KeyOrderFollowsTheValues) {
  const std::vector<float> ladder = {-INFINITY, -1e30f, -1.0f, -1e-30f, -0.0f,
                                     0.0f,      1e-30f, 1.0f,  1e30f,   INFINITY};
  for (std::size_t k = 1; k < ladder.size(); ++k)
    EXPECT_LT(ordered(ladder[k - 1]), ordered(ladder[k])) << ladder[k - 1] << " " << ladder[k];
  EXPECT_GT(ordered(-INFINITY), 0u);  // the launcher's 0 is below every key
}

// The lesson's claim: on 2^25 floats in [0.5, 1.5) (PositiveMean's distribution) a sequential
// float loop ends outside the deterministic sum's bound (host_reference.hpp), here with the
// standard library's generator rather than the course's draw.
TEST(Quiz10Facts, NaiveFloatLoopLeavesTheBound) {
  const long long n = 1LL << 25;
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  float naive = 0.0f;
  double exact = 0.0;
  for (long long i = 0; i < n; ++i) {
    const float v = static_cast<float>(u(gen) + 0.5);
    naive += v;
    exact += v;
  }
  const int threads = header_constant("BLOCK_THREADS");
  const double links = header_constant("SUM_TILE") / threads + std::log2(threads) +
                       static_cast<double>((tiles(n) + threads - 1) / threads) +
                       std::log2(threads) + 16;
  const double bound = 1.01 * links * std::ldexp(1.0, -24) * exact;  // every value is positive
  EXPECT_GT(std::fabs(naive - exact), 2 * bound) << "naive " << naive << ", exact " << exact;
}

}  // namespace
