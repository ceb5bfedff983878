// The answers written in lesson 05_warps' quiz.json, recomputed by simulating the warps the
// questions describe (quiz_pins.hpp explains the pins). A host model of __shfl_down_sync on a
// whole warp: lane l reads lane l + delta, or keeps its own value when that is past lane 31
// (Programming Guide, "Warp Shuffle Functions"). The Quiz05Facts tests check what the
// explanations say beyond the answers, and that the quiz's numbers match the lesson's header.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/quiz.hpp"
#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

constexpr int kWarp = 32;
using Warp = std::array<float, kWarp>;

// One __shfl_down_sync(0xffffffff, v, delta) over a whole warp.
Warp shfl_down(const Warp& v, int delta) {
  Warp out{};
  for (int lane = 0; lane < kWarp; ++lane)
    out[lane] = lane + delta < kWarp ? v[lane + delta] : v[lane];
  return out;
}

// The warp reduction of the lesson with `op`; returns every lane's final value and counts steps.
Warp reduce(Warp v, const std::function<float(float, float)>& op, int* steps = nullptr) {
  int k = 0;
  for (int offset = kWarp / 2; offset > 0; offset /= 2, ++k) {
    const Warp other = shfl_down(v, offset);
    for (int lane = 0; lane < kWarp; ++lane) v[lane] = op(v[lane], other[lane]);
  }
  if (steps) *steps = k;
  return v;
}

float add(float a, float b) {
  return a + b;
}

// A value of the header lessons/05_warps/warps.cuh, `constexpr int NAME = value;`.
int header_constant(const std::string& name) {
  std::ifstream in(std::string(COURSE_SOURCE_DIR) + "/lessons/05_warps/warps.cuh");
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str(), key = "constexpr int " + name + " = ";
  const std::size_t at = s.find(key);
  if (at == std::string::npos) throw std::runtime_error("no " + name + " in warps.cuh");
  return std::stoi(s.substr(at + key.size()));
}

// ---- the pins ----

// if (threadIdx.x < 100) on a block of 256: warps with lanes on both sides.
QUIZ_NUMERIC("divergent-warps") {
  int diverged = 0;
  for (int w = 0; w < 256 / kWarp; ++w) {
    int taken = 0;
    for (int lane = 0; lane < kWarp; ++lane) taken += (w * kWarp + lane) < 100;
    diverged += taken > 0 && taken < kWarp;
  }
  return diverged;
}

QUIZ_NUMERIC("shuffle-steps") {
  Warp v{};
  for (int lane = 0; lane < kWarp; ++lane) v[lane] = 1.0f;
  int steps = 0;
  const Warp r = reduce(v, add, &steps);
  if (r[0] != 32.0f) return -1;
  return steps;
}

QUIZ_NUMERIC("shuffle-out-of-range") {
  Warp v{};
  for (int lane = 0; lane < kWarp; ++lane) v[lane] = static_cast<float>(lane);
  const Warp other = shfl_down(v, 16);
  return v[20] + other[20];
}

// n = 33 on one block of 256 threads: warps without an element.
QUIZ_NUMERIC("idle-warps") {
  const int n = 33;
  int idle = 0;
  for (int w = 0; w < 256 / kWarp; ++w) idle += w * kWarp >= n;
  return idle;
}

// The launcher's grid on an H200, one atomicAdd per block.
QUIZ_NUMERIC("grid-atomics") {
  return header_constant("SUM_BLOCKS_PER_SM") * 132;
}

QUIZ_NUMERIC("sum-bytes") {
  return 4.0 * static_cast<double>(1LL << 26);
}

// What the exited lane gives is undefined: not a fixed value, not a hang (the shfl.sync waits for
// the non-exited threads of the mask only). The pin checks the sentence it picks and that the two
// "plausible" fixed values would each make the kernel right or wrong by accident: with 0 from the
// exited lanes the sum of a partial warp would be right, with the own value it would be doubled.
QUIZ_CHOICE("exited-lane", q) {
  Warp v{};
  for (int lane = 0; lane < kWarp; ++lane) v[lane] = lane < 8 ? -1.0f - lane : 0.0f;
  const float zero_fill = reduce(v, add)[0];  // lanes 8-31 as 0: the right sum
  if (zero_fill != -36.0f) return -1;
  return only_choice(q, [](const std::string& c) { return c.rfind("an undefined value", 0) == 0; });
}

// Try each candidate identity on a partial warp of negative numbers (8 live lanes).
QUIZ_CHOICE("max-identity", q) {
  const auto max_with = [](float identity_at_lane_8, bool lane_number) {
    Warp v{};
    for (int lane = 0; lane < kWarp; ++lane)
      v[lane] =
          lane < 8 ? -1.0f - lane : (lane_number ? static_cast<float>(lane) : identity_at_lane_8);
    return reduce(v, [](float a, float b) { return std::fmax(a, b); })[0];
  };
  const float right = -1.0f;
  const bool zero_ok = max_with(0.0f, false) == right;
  const bool flt_min_ok = max_with(FLT_MIN, false) == right;
  const bool inf_ok = max_with(-INFINITY, false) == right;
  const bool lane_ok = max_with(0.0f, true) == right;
  return only_choice(q, [&](const std::string& c) {
    if (c == "0.0f") return zero_ok;
    if (c == "FLT_MIN") return flt_min_ok;
    if (c == "-INFINITY") return inf_ok;
    if (c.rfind("the lane's own number", 0) == 0) return lane_ok;
    return false;
  });
}

QUIZ_CHOICE("why-masks", q) {
  return only_choice_starting(q, "since Volta a warp's threads are scheduled independently");
}

// ---- facts beyond the answers ----

// shuffle-out-of-range's explanation: lanes 0-15 hold 2 x lane + 16; lane 0 of a full reduction
// never reads a lane past 31 (its sources are 16, 8, 4, 2, 1).
TEST(Quiz05Facts, LowLanesAndLaneZero) {
  Warp v{};
  for (int lane = 0; lane < kWarp; ++lane) v[lane] = static_cast<float>(lane);
  const Warp other = shfl_down(v, 16);
  for (int lane = 0; lane < 16; ++lane) EXPECT_EQ(v[lane] + other[lane], 2.0f * lane + 16);
  for (int offset = 16; offset > 0; offset /= 2) EXPECT_LT(0 + offset, kWarp);
}

// The warp reduction with the identities gives the right sum and maximum on every partial warp.
TEST(Quiz05Facts, IdentitiesMakeEveryPartialWarpRight) {
  for (int live = 1; live <= kWarp; ++live) {
    Warp s{}, m{};
    float sum = 0, max = -INFINITY;
    for (int lane = 0; lane < kWarp; ++lane) {
      const float x = -1.0f - static_cast<float>((lane * 7) % 13);
      s[lane] = lane < live ? x : 0.0f;
      m[lane] = lane < live ? x : -INFINITY;
      if (lane < live) {
        sum += x;
        max = std::max(max, x);
      }
    }
    EXPECT_EQ(reduce(s, add)[0], sum) << live;
    EXPECT_EQ(reduce(m, [](float a, float b) { return std::fmax(a, b); })[0], max) << live;
  }
}

// grid-atomics' explanation: 2^26 elements over 8 x 132 x 256 threads, 248 or 249 each.
TEST(Quiz05Facts, ElementsPerThreadOfTheSumGrid) {
  const long long threads = 1LL * header_constant("SUM_BLOCKS_PER_SM") * 132 * 256;
  const long long n = 1LL << 26;
  EXPECT_EQ(threads, 270336);
  EXPECT_EQ(n / threads, 248);
  EXPECT_NE(n % threads, 0);
}

// The prediction's prompt names the chain length of the header.
TEST(Quiz05Facts, PredictionNamesTheChainLength) {
  const course::quiz::Quiz quiz =
      course::quiz::Quiz::load(std::string(COURSE_SOURCE_DIR) + "/lessons/05_warps/quiz.json");
  const auto it =
      std::find_if(quiz.questions.begin(), quiz.questions.end(),
                   [](const course::quiz::Question& x) { return x.id == "predict-uniform"; });
  ASSERT_NE(it, quiz.questions.end());
  const std::string chain = std::to_string(header_constant("CHAIN_LENGTH"));
  EXPECT_NE(it->prompt.find(chain + " dependent"), std::string::npos);
}

}  // namespace
