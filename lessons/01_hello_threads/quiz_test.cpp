// Lesson 01_hello_threads's quiz (quiz.json): every numeric answer recomputed from the lesson's
// definitions, every choice answer checked against a computed fact where one exists, and every
// question id pinned here, so that a question added to the file without a check here fails.
// Compiled into the grader's CPU unit tests (grader/tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "course/manifest.hpp"
#include "course/quiz.hpp"

namespace {

using course::quiz::Kind;
using course::quiz::Question;
using course::quiz::Quiz;

const char* const kLesson = "01_hello_threads";

Quiz load() {
  return Quiz::load(std::string(COURSE_SOURCE_DIR) + "/lessons/" + kLesson + "/quiz.json");
}

const Question& find(const Quiz& q, const std::string& id) {
  for (const Question& x : q.questions)
    if (x.id == id) return x;
  throw std::runtime_error("no question " + id);
}

const std::string& right_choice(const Question& q) {
  return q.choices.at(static_cast<std::size_t>(q.answer_index));
}

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
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

// ---- the checks, one per question id ----

using Check = std::function<void(const Question&)>;

void expect_answer(const Question& q, double truth) {
  ASSERT_EQ(q.kind, Kind::numeric);
  EXPECT_LE(std::fabs(q.answer - truth), q.tolerance + 1e-9)
      << q.id << ": the file says " << q.answer << ", computed " << truth;
}

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> all = {
      {"global-id-1d", [](const Question& q) { expect_answer(q, global_id({2}, {4}, {5}, {64})); }},
      {"thread-only-unwritten",
       [](const Question& q) {
         // <<<3, 4>>> writing out[threadIdx.x]: the elements no thread's index reaches.
         std::set<long long> written;
         for (long long b = 0; b < 3; ++b)
           for (long long t = 0; t < 4; ++t) written.insert(t);
         expect_answer(q, static_cast<double>(3 * 4 - written.size()));
       }},
      {"lane-2d",
       [](const Question& q) {
         const long long t = flatten({5, 3}, {16, 8});
         expect_answer(q, static_cast<double>(t % kWarp));
         EXPECT_NE(t % kWarp, 5 % kWarp) << "the question must tell threadIdx.x % 32 apart";
       }},
      {"global-id-2d",
       [](const Question& q) {
         expect_answer(q, global_id({2, 1}, {3, 2}, {5, 3}, {8, 4}));
       }},
      {"warps-in-100",
       [](const Question& q) {
         std::set<long long> warps;
         for (long long t = 0; t < 100; ++t) warps.insert(t / kWarp);
         expect_answer(q, static_cast<double>(warps.size()));
       }},
      {"warp-never-spans-blocks",
       [](const Question& q) {
         // Thread 0 of block 1 of <<<2, 48>>>: warps are cut inside the block.
         const long long t = flatten({0}, {48}), g = global_id({1}, {2}, {0}, {48});
         EXPECT_EQ(g, 48);
         const std::string right =
             "Warp " + std::to_string(t / kWarp) + ", lane " + std::to_string(t % kWarp);
         EXPECT_TRUE(starts_with(right_choice(q), right + ":")) << right_choice(q);
         // The distractor is what the global id would give.
         const std::string from_global =
             "Warp " + std::to_string(g / kWarp) + ", lane " + std::to_string(g % kWarp);
         EXPECT_TRUE(starts_with(q.choices.at(0), from_global + ":")) << q.choices.at(0);
       }},
      {"printf-order",
       [](const Question& q) {
         // No order between blocks (Thread Hierarchy); one line per thread (Formatted Output).
         EXPECT_NE(right_choice(q).find("All 8 lines"), std::string::npos);
         EXPECT_NE(right_choice(q).find("order between blocks is not promised"), std::string::npos);
       }},
      {"grid-limit",
       [](const Question& q) {
         ASSERT_EQ(q.kind, Kind::choice);
         for (std::size_t k = 0; k < q.choices.size(); ++k) {
           const auto [grid, block] = parse_launch(q.choices[k]);
           EXPECT_EQ(!launchable(grid, block), static_cast<int>(k) == q.answer_index)
               << q.choices[k];
         }
       }},
  };
  return all;
}

TEST(Lesson01Quiz, ParsesAndMatchesTheManifest) {
  const Quiz q = load();
  EXPECT_EQ(q.lesson, kLesson);
  EXPECT_GE(q.questions.size(), 5u);
  EXPECT_LE(q.questions.size(), 8u);
  const course::Manifest m =
      course::Manifest::load(std::string(COURSE_SOURCE_DIR) + "/lessons/course.json");
  EXPECT_TRUE(course::quiz::problems(q, m).empty());
}

// Every question id is pinned by a check in this file, and every check has its question.
TEST(Lesson01Quiz, EveryQuestionIsPinned) {
  std::set<std::string> in_file, pinned;
  for (const Question& q : load().questions) in_file.insert(q.id);
  for (const auto& entry : checks()) pinned.insert(entry.first);
  EXPECT_EQ(in_file, pinned);
}

TEST(Lesson01Quiz, AnswersAreComputed) {
  const Quiz quiz = load();
  for (const auto& [id, check] : checks()) {
    SCOPED_TRACE(id);
    check(find(quiz, id));
  }
}

// The grader accepts the right answer and rejects the others.
TEST(Lesson01Quiz, RightAnswersAreAccepted) {
  for (const Question& q : load().questions) {
    SCOPED_TRACE(q.id);
    const course::quiz::Instance inst = course::quiz::instantiate(q, 1);
    if (q.kind == Kind::numeric) {
      EXPECT_TRUE(course::quiz::check(inst, course::quiz::format_number(q.answer)).correct);
      EXPECT_FALSE(course::quiz::check(inst, course::quiz::format_number(q.answer + 1)).correct);
    } else if (q.kind == Kind::choice) {
      for (std::size_t k = 0; k < q.choices.size(); ++k)
        EXPECT_EQ(course::quiz::check(inst, std::string(1, static_cast<char>('a' + k))).correct,
                  static_cast<int>(k) == q.answer_index);
    }
  }
}

// Right choices are spread over the letters, not all "b".
TEST(Lesson01Quiz, ChoiceAnswersAreSpread) {
  std::set<int> letters;
  int choices = 0;
  for (const Question& q : load().questions)
    if (q.kind == Kind::choice) {
      letters.insert(q.answer_index);
      ++choices;
    }
  EXPECT_EQ(static_cast<int>(letters.size()), choices);
}

}  // namespace
