// The answers written in this lesson's quiz.json, recomputed, mostly with the lesson's own
// simulator (quiz_pins.hpp explains the pins; grader/tests/quiz_test.cpp fails for a choice or
// numeric question without one). The `sectors` questions need no pin: the simulator answers them
// (tools/sectors_quiz_test.cpp).
#include <algorithm>
#include <string>

#include "quiz_pins.hpp"
#include "tools/sim.hpp"

namespace {

using coalescing::sim::Access;
using coalescing::sim::simulate;
using quiz_pins::only_choice_starting;

Access load(long long stride, int element_bytes = 4, int lanes = 32) {
  Access a;
  a.stride = stride;
  a.element_bytes = element_bytes;
  a.lanes = lanes;
  return a;
}

// One lane alone moves one sector.
QUIZ_CHOICE("unit-of-transfer", q) {
  return only_choice_starting(q, std::to_string(simulate(load(1, 4, 1)).bytes_moved) + " bytes");
}

// Every stride from 8 to 32 touches 32 sectors.
QUIZ_CHOICE("stride-plateau", q) {
  for (long long s = 8; s <= 32; ++s)
    if (simulate(load(s)).sectors.size() != 32) return -1;
  return only_choice_starting(q, "It stays at 32");
}

// Threads on rows: lanes 4096 floats apart.
QUIZ_CHOICE("row-column-swap", q) {
  return only_choice_starting(q, std::to_string(simulate(load(4096)).sectors.size()) + " sectors");
}

// The channel on threadIdx.x puts lanes n floats apart (n = 1 << 20 here); the pixel on
// threadIdx.x puts them on consecutive floats, the coalesced 4 sectors.
QUIZ_CHOICE("channel-on-blockidx", q) {
  if (simulate(load(1 << 20)).sectors.size() != 32 || simulate(load(1)).sectors.size() != 4)
    return -1;
  return only_choice_starting(q, "threadIdx.x picks the pixel");
}

// float4 against float: the same bytes per sector, all used (so not "fewer sectors"), four
// times the bytes per instruction.
QUIZ_CHOICE("float4-why", q) {
  const auto r1 = simulate(load(1)), r4 = simulate(load(1, 16));
  const bool same_sectors_per_byte = 4 * r1.sectors.size() == r4.sectors.size();
  const bool all_used = r1.bytes_moved == r1.bytes_used && r4.bytes_moved == r4.bytes_used;
  if (!same_sectors_per_byte || !all_used || r4.bytes_used != 4 * r1.bytes_used) return -1;
  return only_choice_starting(q, "Each load instruction moves four times");
}

// Per element the write moves 4 bytes and the read 4 * min(s, 8); 8 bytes count.
QUIZ_NUMERIC("copy-model-stride-2") {
  const int s = 2;
  return 100.0 * 8.0 / (4.0 + 4.0 * std::min(s, 8));
}

// Threads t < n / 4 copy a float4 each; one thread copies what is left.
QUIZ_NUMERIC("float4-tail") {
  const int n = 1027, whole = n / 4;
  return static_cast<double>(n - 4 * whole);
}

}  // namespace
