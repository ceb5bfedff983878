// The answers written in lesson 13_matmul_tiled's quiz.json, recomputed (grader/tests/quiz_pins.hpp
// explains the pins; every choice and numeric question needs one).
#include <cmath>

#include "quiz_pins.hpp"

namespace {

using quiz_pins::only_choice_starting;

constexpr double kFloatBytes = 4;

QUIZ_NUMERIC("intensity") {
  const double n = 4096;
  return std::round(2 * n * n * n / (3 * n * n * kFloatBytes));
}

// The block count that covers 1000 columns with 32 per block: rounded up.
QUIZ_NUMERIC("blocks-for") {
  const int extent = 1000, per_block = 32;
  return (extent + per_block - 1) / per_block;
}

QUIZ_NUMERIC("shared-loads-tiles") {
  const int loads = 2, multiply_adds = 1;  // As[ty][k] and Bs[k][tx] per acc += ...
  return static_cast<double>(loads) / multiply_adds;
}

QUIZ_NUMERIC("shared-loads-register") {
  const int tm = 4, tn = 4;
  return static_cast<double>(tm + tn) / (tm * tn);
}

QUIZ_CHOICE("why-transpose-a", q) {
  return only_choice_starting(q, "So that a thread's values of A at one k are consecutive");
}

QUIZ_CHOICE("tolerance-sqrt-k", q) {
  return only_choice_starting(q, "Because the K rounding errors have random signs");
}

// FP32 keeps 23 explicit mantissa bits; TF32 drops the low 13 (round_to_tf32 masks 0x1FFF).
QUIZ_NUMERIC("tf32-bits") {
  const int fp32_bits = 23, dropped = 13;
  return fp32_bits - dropped;
}

}  // namespace
