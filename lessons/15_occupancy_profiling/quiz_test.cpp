// The answers written in lesson 15_occupancy_profiling's quiz.json, recomputed
// (grader/tests/quiz_pins.hpp explains the pins; every choice and numeric question needs one).
#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

// An H200 SM (WARMUP §8.3): registers, resident threads, resident blocks, shared memory.
constexpr int kRegisters = 65536, kThreads = 2048, kBlocks = 32, kSharedBytes = 228 * 1024;
constexpr int kSegmentBytesPerThread = 33 * 4;  // segment_smem_bytes(): 33 ints per thread

QUIZ_NUMERIC("blocks-at-96-registers") {
  return kRegisters / (96 * 256);
}

QUIZ_NUMERIC("registers-for-full-occupancy") {
  return kRegisters / kThreads;
}

QUIZ_CHOICE("spill-meaning", q) {
  return only_choice_starting(q, "The compiler could not keep every live value");
}

QUIZ_NUMERIC("block-32-occupancy") {
  return 100 * kBlocks * 32 / kThreads;
}

QUIZ_CHOICE("one-block-per-sm", q) {
  const int per_block = 1024 * kSegmentBytesPerThread;
  if (2 * per_block <= kSharedBytes || per_block > kSharedBytes) return -1;
  return only_choice_starting(q, "Its 135,168 bytes");
}

QUIZ_CHOICE("achieved-vs-theoretical", q) {
  return only_choice_starting(q, "The grid is too small");
}

}  // namespace
