// Lesson 02_vector_add's quiz (lessons/02_vector_add/quiz.json), checked on the CPU: the file
// parses and matches the manifest, every numeric answer is recomputed here, every choice answer is
// checked against a computed fact or pinned to the text that carries it, and every question id is
// pinned by this file (a question added without a check here fails EveryQuestionIsPinned).
// Compiled into grader_unit_tests (grader/tests/CMakeLists.txt collects lessons/*/quiz_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/quiz.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using course::quiz::Quiz;

Quiz quiz02() {
  return Quiz::load(COURSE_SOURCE_DIR "/lessons/02_vector_add/quiz.json");
}

const Question& question(const Quiz& q, const std::string& id) {
  for (const Question& x : q.questions)
    if (x.id == id) return x;
  throw std::runtime_error("no question " + id);
}

const std::string& right_choice(const Question& q) {
  return q.choices.at(static_cast<std::size_t>(q.answer_index));
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

// Every question this file checks, by id.
const std::set<std::string> kPinned = {"launch-config-error", "memcpy-direction", "bytes-moved",
                                       "effective-bandwidth", "idle-threads",     "sticky-error",
                                       "kernel-error-where",  "predict-kernel"};

TEST(Quiz02VectorAdd, ParsesAndMatchesTheManifest) {
  const Quiz q = quiz02();
  const course::Manifest m = course::Manifest::load(COURSE_SOURCE_DIR "/lessons/course.json");
  EXPECT_EQ(q.lesson, "02_vector_add");
  EXPECT_GE(q.questions.size(), 5u);
  EXPECT_LE(q.questions.size(), 8u);
  EXPECT_TRUE(course::quiz::problems(q, m).empty());
}

TEST(Quiz02VectorAdd, EveryQuestionIsPinned) {
  std::set<std::string> ids;
  for (const Question& x : quiz02().questions) ids.insert(x.id);
  EXPECT_EQ(ids, kPinned);
}

// Right answers spread over the letters, not all "b".
TEST(Quiz02VectorAdd, RightChoicesAreSpreadOut) {
  std::set<int> positions;
  int choices = 0;
  for (const Question& x : quiz02().questions)
    if (x.kind == Kind::choice) {
      positions.insert(x.answer_index);
      ++choices;
    }
  EXPECT_EQ(static_cast<int>(positions.size()), choices);
}

TEST(Quiz02VectorAdd, NumericAnswersAreRecomputed) {
  const Quiz q = quiz02();
  const double n = 67108864.0;  // 2^26
  const double bytes = 3.0 * sizeof(float) * n;
  EXPECT_EQ(n, std::ldexp(1.0, 26));
  EXPECT_DOUBLE_EQ(question(q, "bytes-moved").answer, bytes);
  const Question& bw = question(q, "effective-bandwidth");
  EXPECT_LE(std::fabs(bw.answer - bytes / 0.30e-3 / 1e9), bw.tolerance);
  const long long m = 1000003, threads = 256;
  const long long blocks = (m + threads - 1) / threads;
  EXPECT_EQ(blocks, 3907);
  EXPECT_DOUBLE_EQ(question(q, "idle-threads").answer, static_cast<double>(blocks * threads - m));
  for (const Question& x : q.questions)
    if (x.kind == Kind::numeric) {
      const course::quiz::Instance inst = course::quiz::instantiate(x, 1);
      EXPECT_TRUE(course::quiz::check(inst, course::quiz::format_number(x.answer)).correct) << x.id;
    }
}

// Exactly one choice copies n floats from d_c into c: destination c first, source d_c second, a
// count in bytes, and the device-to-host direction.
TEST(Quiz02VectorAdd, MemcpyChoiceIsTheOnlyRightCall) {
  const Quiz q = quiz02();
  const Question& x = question(q, "memcpy-direction");
  for (std::size_t k = 0; k < x.choices.size(); ++k) {
    const std::string& call = x.choices[k];
    const auto open = call.find('('), close = call.rfind(')');
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
    ASSERT_EQ(args.size(), 4u) << call;
    const bool right = args[0] == "c" && args[1] == "d_c" && args[2] == "n*sizeof(float)" &&
                       args[3] == "cudaMemcpyDeviceToHost";
    EXPECT_EQ(right, static_cast<int>(k) == x.answer_index) << call;
  }
}

// The facts the remaining choices carry, pinned to their text.
TEST(Quiz02VectorAdd, ChoiceFactsArePinned) {
  const Quiz q = quiz02();
  // 2048 threads per block is over the 1024 every GPU of compute capability 7.5+ allows; the
  // refusal is read with cudaGetLastError(), and cudaDeviceSynchronize() has nothing to report.
  const Question& launch = question(q, "launch-config-error");
  EXPECT_TRUE(contains(launch.prompt, "<<<blocks, 2048>>>"));
  EXPECT_TRUE(starts_with(right_choice(launch), "cudaGetLastError()"));
  EXPECT_TRUE(contains(launch.explain, "returns cudaSuccess"));

  // Sticky: the same error again, until the process ends.
  const Question& sticky = question(q, "sticky-error");
  EXPECT_TRUE(starts_with(right_choice(sticky), "cudaErrorIllegalAddress again"));
  EXPECT_TRUE(contains(sticky.explain, "terminated and relaunched"));

  // A kernel's own error: reported by the synchronization after the launch, not by the launch.
  const Question& where = question(q, "kernel-error-where");
  EXPECT_TRUE(starts_with(right_choice(where), "cudaDeviceSynchronize()"));

  // The prediction names this lesson's gated step.
  const Question& predict = question(q, "predict-kernel");
  EXPECT_EQ(predict.kind, Kind::prediction);
  EXPECT_EQ(predict.measured_lesson, "02_vector_add");
  EXPECT_EQ(predict.measured_step, "kernel");
}

}  // namespace
