// The answers written in this lesson's quiz.json, recomputed with the lesson's bank model
// (tools/banks.hpp, the model behind `grader banks`; quiz_pins.hpp explains the pins).
#include <gtest/gtest.h>

#include <string>

#include "quiz_pins.hpp"
#include "tools/banks.hpp"

namespace {

using bank_conflicts::banks::Access;
using bank_conflicts::banks::Pattern;
using bank_conflicts::banks::simulate;
using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

Access column_read(int element_bytes, int pad, int k = 0) {
  Access a;
  a.element_bytes = element_bytes;
  a.pad = pad;
  a.pattern = Pattern::column;
  a.index = k;
  return a;
}

// Wavefronts per warp for one k: the rung (A broadcast + B row) against the conflicted kernel
// (A broadcast + B column of float[32][32]). Only the conflicted B read takes more than one pass.
QUIZ_CHOICE("what-binds", q) {
  Access row = column_read(4, 0);
  row.pattern = Pattern::row;
  Access broadcast = column_read(4, 0);
  broadcast.pattern = Pattern::broadcast;
  const int rung = simulate(broadcast).wavefront_count() + simulate(row).wavefront_count();
  const int conflicted =
      simulate(broadcast).wavefront_count() + simulate(column_read(4, 0)).wavefront_count();
  if (rung != 2 || conflicted != 33) return -1;
  return only_choice_starting(q, "Shared-memory wavefronts");
}

// bs[9][30] of float[32][33]: its first byte's bank, from the model.
QUIZ_NUMERIC("padded-bank") {
  Access a = column_read(4, 1, 30);
  return simulate(a).lanes[9].bank;
}

// Element (6, 3) of the swizzled float[32][32]: lane 6 of the swizzled read of column 3.
QUIZ_NUMERIC("swizzled-bank") {
  Access a = column_read(4, 0, 3);
  a.pattern = Pattern::swizzled;
  return simulate(a).lanes[6].bank;
}

// float[32][34], column read: the degree of the conflict.
QUIZ_CHOICE("pad-two-ways", q) {
  return only_choice_starting(q, std::to_string(simulate(column_read(4, 2)).ways) + "-way");
}

// Padding A: its read is a broadcast (1 pass for any padding); B's column read is unchanged.
QUIZ_CHOICE("pads-wrong-array", q) {
  Access a = column_read(4, 1, 5);
  a.pattern = Pattern::broadcast;
  if (simulate(a).wavefront_count() != 1 || simulate(column_read(4, 0)).ways != 32) return -1;
  return only_choice_starting(q, "As slow as the conflicted step");
}

// Store at bs[r][k ^ r], read bs[x][k]: lane x fetches the element stored at column k of row x,
// logical column k ^ x, which differs from k for every lane but 0.
QUIZ_CHOICE("swizzle-one-side", q) {
  for (int k = 0; k < 32; ++k)
    for (int x = 1; x < 32; ++x)
      if ((k ^ x) == k) return -1;
  return only_choice_starting(q, "Elements wrong");
}

// double[32][34], column read: wavefronts of both half-warps.
QUIZ_NUMERIC("wavefronts-64") {
  return simulate(column_read(8, 2)).wavefront_count();
}

// The one declaration whose double column read takes the minimum, 2 wavefronts.
QUIZ_CHOICE("pad-64", q) {
  return only_choice(q, [](const std::string& decl) {
    const auto open = decl.rfind('['), close = decl.rfind(']');
    const int width = std::stoi(decl.substr(open + 1, close - open - 1));
    return simulate(column_read(8, width - 32)).wavefront_count() == 2;
  });
}

// 32 k values, one A load and one B load each.
QUIZ_NUMERIC("loads-per-element") {
  return 32 * 2;
}

}  // namespace
