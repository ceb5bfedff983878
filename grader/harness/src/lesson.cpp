#include "harness/lesson.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "course/protocol.hpp"
#include "harness/clocks.hpp"
#include "harness/device.hpp"
#include "harness/manifest_step.hpp"

namespace harness {

std::string mismatch_message(const std::string& name, const Mismatches& m, const Where& where,
                             const char* never) {
  return fmt::format(
      "{}: {} of {} elements wrong{}; first mismatch at {}: expected {}, got {}{}", name, m.wrong,
      m.total, m.unwritten ? fmt::format(" ({} {})", m.unwritten, never) : "", where(name, m.first),
      m.expected, m.got, m.first_unwritten ? fmt::format(" ({})", never) : "");
}

Where flat() {
  return [](const std::string& name, std::size_t i) { return fmt::format("{}[{}]", name, i); };
}

Where row_major(std::size_t cols) {
  return [cols](const std::string& name, std::size_t i) {
    const std::size_t r = i / cols, c = i % cols;
    return fmt::format("{}[{}][{}] (row {}, col {})", name, r, c, r, c);
  };
}

void skip_in_quick_mode(const std::string& why) {
  throw SkipCase(course::protocol::kQuickSkipPrefix + why);
}

long long timing_side(std::size_t buffers, std::size_t element_bytes) {
  const DeviceInfo& d = current_device();
  auto bytes = [&](long long side) {
    return static_cast<double>(buffers * element_bytes) * static_cast<double>(side) * side;
  };
  long long side = 8192;
  while (bytes(side) < 4.0 * d.l2_bytes) side *= 2;
  while (side > 256 && bytes(side) + 2.0 * d.l2_bytes > 0.7 * d.free_bytes) side /= 2;
  return side / 32 * 32;
}

long long timing_elements(std::size_t buffers, std::size_t element_bytes) {
  const long long side = timing_side(buffers, element_bytes);
  return side * side;
}

std::string name_n(const int& n) {
  return fmt::format("n_{}", n);
}

namespace detail {

std::string past_end_message(const std::string& name, std::size_t n, std::size_t damaged,
                             bool input) {
  const std::string count = fmt::format("{} element{}", damaged, damaged == 1 ? "" : "s");
  if (n == 0)
    return fmt::format("wrote {} into {}, which has no elements (n = 0): nothing may be written",
                       count, name);
  if (input)
    return fmt::format(
        "wrote {} past the end of the input {} (past {}[{}]): an input is only read, and nothing "
        "may be written past any array",
        count, name, name, n - 1);
  return fmt::format(
      "wrote {} past {}[{}], outside the output: check the index against the bounds before "
      "every store",
      count, name, n - 1);
}

std::string changed_input_message(const std::string& name, std::size_t changed, std::size_t first) {
  return fmt::format(
      "the input changed: {} element{} of {} differ after the launch (the first is {}[{}]); the "
      "kernel must only read {}",
      changed, changed == 1 ? "" : "s", name, name, first, name);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Case

Case::Case(std::string lesson, std::string step, std::string name, Mode mode, std::uint64_t seed)
    : lesson_(std::move(lesson)),
      step_(std::move(step)),
      name_(std::move(name)),
      mode_(mode),
      seed_(seed) {
  what_ = step_ + " on " + name_;
  record("seed", static_cast<double>(seed_));
}

Case::~Case() = default;

void Case::describe(std::string kernel, std::string shape) {
  what_ = kernel + " on " + shape;
  record("shape", shape);
}

std::string Case::prefix() const {
  return fmt::format("{}, seed {}", what_, seed_);
}

void Case::admit(std::size_t n) const {
  // Under compute-sanitizer (--quick) kernels run 10-100x slower: small shapes only.
  if (quick() && n > (1u << 16)) skip_in_quick_mode("large shape skipped");
}

std::size_t Case::guard_for(std::size_t n) const {
  // Guards catch writes past the end. The timing shape has none (it is checked on the small
  // shapes); under compute-sanitizer there are none either, so memcheck sees the exact bounds of
  // each allocation.
  // As long as the array up to 4 Mi elements: long enough to catch a wrong stride's writes far
  // past the end, without doubling the memory of a multi-GiB case.
  if (timing() || quick()) return 0;
  return std::clamp<std::size_t>(n, 4096, std::size_t(1) << 22);
}

void Case::report(const std::string& name, const Mismatches& m, const Where& where,
                  const Advice& advice, const char* never) {
  if (m.ok()) return;
  std::string text = mismatch_message(name, m, where, never);
  if (advice)
    if (std::string more = advice(m); !more.empty()) text += ". " + more;
  failures_.push_back(text);
}

void Case::expect_near(const Output<float>& out, const std::vector<double>& exact,
                       const std::vector<double>& tolerance, Where where, Advice advice) {
  const std::vector<float> got = out.download();
  report(out.name(),
         compare_near(exact, tolerance, got, [&](std::size_t i) { return still_poisoned(got[i]); }),
         where, advice, "never written");
}

void Case::expect_near(const InOut<float>& a, const std::vector<double>& exact,
                       const std::vector<double>& tolerance, Where where, Advice advice) {
  const std::vector<float> got = a.download();
  report(a.name(),
         compare_near(
             exact, tolerance, got,
             [&](std::size_t i) { return std::memcmp(&got[i], &a.host()[i], sizeof(float)) == 0; }),
         where, advice, "never updated");
}

void Case::fail(const std::string& message) {
  failures_.push_back(message);
}

void Case::check_buffers() {
  // The timing shape has no guards, and its inputs were checked unchanged on every small shape:
  // comparing hundreds of MiB again would only slow every speed test down.
  if (timing()) return;
  for (const auto& b : buffers_)
    for (std::string& p : b->end_problems()) failures_.push_back(std::move(p));
}

void Case::release() {
  buffers_.clear();
  student_ = nullptr;
  ceiling_ = nullptr;
}

std::pair<const void*, void*> Case::memcpy_pair(std::size_t& bytes) const {
  using Role = detail::BufferBase::Role;
  detail::BufferBase *src = nullptr, *dst = nullptr;
  for (const auto& b : buffers_) {
    if (!src && b->role != Role::output) {
      src = b.get();
    } else if (!dst && b->role != Role::input) {
      dst = b.get();
    }
  }
  if (!src || !dst) return {nullptr, nullptr};
  const std::size_t in = src->size() * src->element_bytes(),
                    out = dst->size() * dst->element_bytes();
  // A copy of the smaller buffer says nothing about a task whose buffers differ in size (lesson
  // 05's sum writes one float from 2^26: it timed a 4-byte copy, "0 GB/s"): no context figure.
  if (std::min(in, out) < std::max(in, out) / 2) return {nullptr, nullptr};
  bytes = std::min(in, out);
  return {src->device(), dst->device()};
}

// ---------------------------------------------------------------------------------------------
// The tests

namespace detail {

namespace {

class FunctionTest : public ::testing::Test {
 public:
  explicit FunctionTest(Runner run) : run_(std::move(run)) {}
  void TestBody() override { run_(); }

 private:
  Runner run_;
};

// Each case draws its own inputs: per process seed (--seed), step and case name.
std::uint64_t case_seed(const std::string& step, const std::string& name) {
  std::uint64_t h = 0xCBF29CE484222325ull;  // FNV-1a of "step/name"
  for (char ch : step + "/" + name) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001B3ull;
  return mix(seed() ^ h) % 1000000007ull;  // short enough to read in a message
}

// Runs `body` on `c`, then the buffer checks. Returns false when the test must stop: a skip
// (already reported) or a CUDA error (added to the case's failures).
bool run_case(Case& c, const std::function<void(Case&)>& body, std::string& skipped) {
  try {
    body(c);
    c.check_buffers();
  } catch (const SkipCase& e) {
    skipped = e.what();
    return false;
  } catch (const CudaError& e) {
    c.fail(e.what());
    return false;
  }
  return true;
}

}  // namespace

void register_test(const std::string& suite, const std::string& name, Runner run) {
  ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [run]() -> ::testing::Test* { return new FunctionTest(run); });
}

void run_correctness(const std::string& lesson, const std::string& step, const std::string& name,
                     const std::function<void(Case&)>& body) {
  if (std::string why = unsupported(lesson, step); !why.empty()) GTEST_SKIP() << why;
  Case c(lesson, step, name, Case::Mode::correctness, case_seed(step, name));
  std::string skipped;
  run_case(c, body, skipped);
  // What went wrong before a skip still counts: a case skipped after a failed check fails.
  for (const std::string& f : c.failures()) ADD_FAILURE() << c.prefix() << ": " << f;
  if (!skipped.empty() && c.failures().empty()) GTEST_SKIP() << skipped;
}

namespace {

// Records what the report shows for a speed test (course::SpeedFigures reads them).
void record_timing(const PairedTiming& t, const course::GateDecision& d) {
  record("gbps", t.student_gbps);
  record("ceiling_gbps", t.ceiling_gbps);
  record("ratio", t.ratio_summary.median);
  record("ratio_q1", t.ratio_summary.q1);
  record("ratio_q3", t.ratio_summary.q3);
  record("pairs", static_cast<double>(t.ratio.size()));
  record("timing_seconds", t.seconds);
  record("verdict", course::to_string(d.verdict));
  record("close_call", d.close_call);
  // Whether the loop went on because the spread straddled the gate (after how many pairs).
  record("remeasured", t.first_straddle_pairs > 0);
  if (t.first_straddle_pairs > 0)
    record("pairs_at_first_decision", static_cast<double>(t.first_straddle_pairs));
  record("peak_gbps", current_device().datasheet_peak_gbps());
}

}  // namespace

void run_speed(const std::string& lesson, const std::string& step,
               const std::function<void(Case&)>& body) {
  if (quick()) GTEST_SKIP() << course::protocol::kQuickSkipPrefix << "not timed";
  if (std::string why = unsupported(lesson, step); !why.empty()) GTEST_SKIP() << why;
  const course::Step& s = manifest_step(lesson, step);
  const std::optional<double> gate =
      s.gate ? std::optional<double>(s.gate->fraction_of_ceiling) : std::nullopt;
  record("kind", "speed");
  record("ceiling_kernel", s.ceiling.kernel);
  record("ceiling_kind", s.ceiling.kind);
  if (gate)
    record("gate", *gate);
  else
    record_null("gate");

  // 1. Never time a wrong kernel: a kernel that skips work would look fast.
  auto c =
      std::make_unique<Case>(lesson, step, "timed", Case::Mode::timing, case_seed(step, "timed"));
  std::string skipped;
  const bool ran = run_case(*c, body, skipped);
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  record("bytes", c->task_bytes());
  if (!ran) {  // a CUDA error: the kernel failed, or never finished, on the timing shape
    ADD_FAILURE() << "not timed: on the timing shape (" << c->prefix() << ") "
                  << c->failures().back();
    return;
  }
  if (!c->failures().empty()) {
    ADD_FAILURE() << "not timed: on the timing shape (" << c->prefix()
                  << ") the output is wrong: " << c->failures().front();
    return;
  }
  if (!c->student_launch() || !c->ceiling_launch() || c->task_bytes() <= 0) {
    ADD_FAILURE() << "the hidden test of " << lesson << "." << step
                  << " is incomplete: its body must call launch(), ceiling() and bytes()";
    return;
  }

  // 2. Time against the ceiling, interleaved, L2 flushed before every sample. The clocks and
  // temperature as found right before and right after go into the report (never locked here).
  try {
    L2Flusher flusher(current_device().l2_bytes);
    const course::ClockSample before = sample_clocks();
    const PairedTiming t = time_pairs(c->ceiling_launch(), c->student_launch(), c->task_bytes(),
                                      gate, course::SamplingPolicy{}, flusher);
    record_clocks(before, sample_clocks());
    const course::GateDecision d =
        course::decide_gate(t.ratio_summary, gate, s.ceiling.impossible_above());
    record_timing(t, d);
    std::size_t memcpy_bytes = 0;
    const auto [src, dst] = c->memcpy_pair(memcpy_bytes);
    if (src && memcpy_bytes > 0)
      record("memcpy_gbps", memcpy_gbps(dst, src, memcpy_bytes, flusher));

    // 3. Fresh inputs after timing, in fresh buffers: a kernel that cached its answer, or
    // replays the last output, fails.
    c.reset();
    Case again(lesson, step, "timed", Case::Mode::timing, case_seed(step, "timed") + 1);
    run_case(again, body, skipped);
    if (!again.failures().empty()) {
      ADD_FAILURE() << "after timing, on fresh inputs (seed " << again.seed()
                    << "), the output is wrong: " << again.failures().front()
                    << ". A kernel must compute its result from its input on every launch";
      return;
    }
    if (d.verdict == course::Verdict::fail)
      ADD_FAILURE() << fmt::format(
          "too slow, below the gate: {:.0f} GB/s against a ceiling of {:.0f} GB/s: {}",
          t.student_gbps, t.ceiling_gbps, d.reason);
    else if (d.verdict == course::Verdict::impossible)
      ADD_FAILURE() << fmt::format("rejected: {:.0f} GB/s against a ceiling of {:.0f} GB/s: {}",
                                   t.student_gbps, t.ceiling_gbps, d.reason);
  } catch (const CudaError& e) {
    ADD_FAILURE() << "while timing on " << lesson << "." << step << ": " << e.what();
  }
}

}  // namespace detail

}  // namespace harness
