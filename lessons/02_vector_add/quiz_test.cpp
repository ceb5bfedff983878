// The answers written in lesson 02_vector_add's quiz.json, recomputed (quiz_pins.hpp explains the
// pins; grader/tests/quiz_test.cpp fails for a choice or numeric question without one, and checks
// that the quiz parses and matches the manifest). The Quiz02Facts tests check what the
// explanations and the prediction say beyond the answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/quiz.hpp"
#include "quiz_pins.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using quiz_pins::only_choice;
using quiz_pins::only_choice_starting;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// c[i] = a[i] + b[i] on n = 2^26 floats: two reads and one write per element.
double add_bytes() {
  const double n = std::ldexp(1.0, 26);
  return 3.0 * sizeof(float) * n;
}

// ---- the pins ----

// 2048 threads per block is over the 1024 every GPU of compute capability 7.5+ allows: the launch
// is refused, and the refusal is read with cudaGetLastError().
QUIZ_CHOICE("launch-config-error", q) {
  const int max_threads_per_block = 1024, threads = 2048;
  if (!contains(q.prompt, "<<<blocks, " + std::to_string(threads) + ">>>") ||
      threads <= max_threads_per_block)
    return -1;
  return only_choice_starting(q, "cudaGetLastError()");
}

// Exactly one choice copies n floats from d_c into c: destination c first, source d_c second, a
// count in bytes, and the device-to-host direction.
QUIZ_CHOICE("memcpy-direction", q) {
  return only_choice(q, [](const std::string& call) {
    const auto open = call.find('('), close = call.rfind(')');
    if (open == std::string::npos || close == std::string::npos) return false;
    std::vector<std::string> args;
    std::string arg;
    for (char ch : call.substr(open + 1, close - open - 1)) {
      if (ch == ',') {
        args.push_back(arg);
        arg.clear();
      } else if (ch != ' ') {
        arg += ch;
      }
    }
    args.push_back(arg);
    return args.size() == 4 && args[0] == "c" && args[1] == "d_c" && args[2] == "n*sizeof(float)" &&
           args[3] == "cudaMemcpyDeviceToHost";
  });
}

QUIZ_NUMERIC("bytes-moved") {
  return add_bytes();
}

// The same bytes in 0.30 ms, in 10^9 bytes per second.
QUIZ_NUMERIC("effective-bandwidth") {
  return add_bytes() / 0.30e-3 / 1e9;
}

// ceil(n / 256) blocks of 256 threads for n = 1,000,003: the threads past the last element.
QUIZ_NUMERIC("idle-threads") {
  const long long m = 1000003, threads = 256;
  const long long blocks = (m + threads - 1) / threads;
  return static_cast<double>(blocks * threads - m);
}

// Sticky: the same error again, until the process ends.
QUIZ_CHOICE("sticky-error", q) {
  return only_choice_starting(q, "cudaErrorIllegalAddress again");
}

// A kernel's own error: reported by the synchronization after the launch, not by the launch.
QUIZ_CHOICE("kernel-error-where", q) {
  return only_choice_starting(q, "cudaDeviceSynchronize()");
}

// ---- facts beyond the answers ----

const Question& question(const std::string& id) {
  static const course::quiz::Quiz quiz =
      course::quiz::Quiz::load(COURSE_SOURCE_DIR "/lessons/02_vector_add/quiz.json");
  const auto it = std::find_if(quiz.questions.begin(), quiz.questions.end(),
                               [&](const Question& x) { return x.id == id; });
  if (it == quiz.questions.end()) throw std::runtime_error("no question " + id);
  return *it;
}

// The refused launch never ran, so cudaDeviceSynchronize() has nothing to report.
TEST(Quiz02Facts, RefusedLaunchLeavesNothingForTheSynchronization) {
  const Question& q = question("launch-config-error");
  EXPECT_TRUE(contains(q.explain, "returns cudaSuccess")) << q.explain;
}

// A sticky error lasts until the process is relaunched.
TEST(Quiz02Facts, StickyErrorNeedsANewProcess) {
  const Question& q = question("sticky-error");
  EXPECT_TRUE(contains(q.explain, "terminated and relaunched")) << q.explain;
}

// The prediction names this lesson's gated step.
TEST(Quiz02Facts, PredictionNamesTheKernelStep) {
  const Question& q = question("predict-kernel");
  EXPECT_EQ(q.kind, Kind::prediction);
  EXPECT_EQ(q.measured_lesson, "02_vector_add");
  EXPECT_EQ(q.measured_step, "kernel");
}

}  // namespace
