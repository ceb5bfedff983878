#include "harness/lesson.hpp"

#include "harness/quiet_gpu.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <stdexcept>

#include "course/protocol.hpp"
#include "course/speed_record.hpp"
#include "harness/clocks.hpp"
#include "harness/device.hpp"
#include "harness/host_timing.hpp"
#include "harness/manifest_step.hpp"
#include "harness/reporter.hpp"
#include "harness/resources.hpp"

namespace harness {

void skip_in_quick_mode(const std::string& why) {
  throw SkipCase(course::protocol::kQuickSkipPrefix + why);
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
      seed_(seed),
      draw_seed_(seed) {
  what_ = step_ + " on " + name_;
  record("seed", static_cast<double>(seed_));
}

Case::~Case() = default;

void Case::describe(std::string kernel, std::string shape) {
  what_ = kernel + " on " + shape;
  record(course::speed_key::kShape, shape);
}

void Case::flops(double f) {
  record(course::speed_key::kFlops, f);
}

std::string Case::prefix() const {
  return fmt::format("{}, seed {}", what_, seed_);
}

void Case::admit(std::size_t n) const {
  // Under compute-sanitizer (--quick) kernels run 10-100x slower: small shapes only.
  if (quick() && n > (1u << 16)) skip_in_quick_mode("large shape skipped");
  // The grader's --quick (--skip-large) is a verdict in seconds (kLargestQuickCase says why this
  // size). The full grade runs these cases; the timed case, which a verdict needs, always runs.
  if (skip_large() && !timing() && n > kLargestQuickCase) skip_in_quick_mode("large shape skipped");
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

void Case::draw(detail::BufferBase& b) {
  b.ordinal = ++inputs_;
  b.seed = mix(draw_seed_ + static_cast<std::uint64_t>(b.ordinal));
  check(b.redraw(b.seed, 0), "draw " + b.name + " on the device");
  wait(0, "draw " + b.name);
  // The speed test's host copies are drawn on the host if a body asks for one (host()): a body
  // that compares on the device never copies hundreds of MiB back.
  if (timing() && b.draw_on_host) {
    b.host_ready = false;
    return;
  }
  b.keep_drawn_values();
}

void Case::refuse_handed_values(const std::string& name) const {
  if (timing())
    throw std::logic_error(fmt::format(
        "hidden test {}.{}: the speed test's input {} is handed over as fixed values; every input "
        "of a speed test is drawn on the device (Case::input(name, n, draw)), so that each timed "
        "launch gets inputs no earlier launch has seen",
        lesson_, step_, name));
}

void Case::prepare_timed(std::uint64_t draw_seed, cudaStream_t stream) {
  for (const auto& b : buffers_)
    b->prepare_timed(b->redraw ? mix(draw_seed + static_cast<std::uint64_t>(b->ordinal)) : 0,
                     stream);
}

std::vector<std::size_t> Case::output_bytes() const {
  std::vector<std::size_t> bytes;
  for (const auto& b : buffers_)
    bytes.push_back(b->role == detail::BufferBase::Role::input ? 0
                                                               : b->size() * b->element_bytes());
  return bytes;
}

void Case::snapshot_outputs(const std::vector<void*>& dst, bool to_host,
                            cudaStream_t stream) const {
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i]->role != detail::BufferBase::Role::input)
      buffers_[i]->snapshot(dst.at(i), to_host, stream);
}

void Case::replay(std::uint64_t draw_seed, std::vector<const void*> outputs, bool from_host) {
  draw_seed_ = draw_seed;
  replaying_ = true;
  replayed_ = std::move(outputs);
  replayed_from_host_ = from_host;
}

void Case::restore_replayed() {
  if (replayed_.size() != buffers_.size())
    throw std::logic_error(fmt::format(
        "hidden test {}.{}: the check of a timed launch made {} buffers where the timed case "
        "made {}: a test body must make the same buffers on every run",
        lesson_, step_, buffers_.size(), replayed_.size()));
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    if (buffers_[i]->role != detail::BufferBase::Role::input)
      buffers_[i]->restore(replayed_[i], replayed_from_host_);
}

bool Case::all_drawn() const {
  for (const auto& b : buffers_)
    if (b->role != detail::BufferBase::Role::output && (!b->redraw || b->adjusted)) return false;
  return true;
}

void Case::vouch(const std::vector<double>& exact, const std::vector<double>& tolerance,
                 const std::vector<Near>& device) const {
  const auto close = [](double a, double b) {
    return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
  };
  for (std::size_t i = 0; i < exact.size(); ++i)
    if (!close(exact[i], device.at(i).exact) || !close(tolerance[i], device[i].tolerance))
      disagree(i, fmt::format("{} (tolerance {})", show(exact[i]), show(tolerance[i])),
               fmt::format("{} (tolerance {})", show(device[i].exact), show(device[i].tolerance)));
}

void Case::disagree(std::size_t i, const std::string& host, const std::string& device) const {
  throw std::logic_error(fmt::format(
      "hidden test {}.{} ({}): its device reference disagrees with its host reference at "
      "element {}: {} on the host, {} on the device (a mistake in the hidden test, not in your "
      "kernel)",
      lesson_, step_, prefix(), i, host, device));
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

namespace {
void register_now(const std::string& suite, const std::string& name, Runner run) {
  ::testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                          [run]() -> ::testing::Test* { return new FunctionTest(run); });
}
struct Deferred {
  std::string suite, name;
  Runner run;
};
std::vector<Deferred>& deferred() {
  static std::vector<Deferred> tests;
  return tests;
}
std::vector<Deferred>& last() {
  static std::vector<Deferred> tests;
  return tests;
}
}  // namespace

// Correctness cases are registered at once, the others (timed, profiled) when main() asks: every
// correctness case then runs first, beside the grade's memcheck run (quiet_gpu.hpp).
void register_test(const std::string& suite, const std::string& name, Runner run) {
  if (runs_beside_other_work(suite))
    register_now(suite, name, std::move(run));
  else
    deferred().push_back({suite, name, std::move(run)});
}

void register_test_waiting_itself(const std::string& suite, const std::string& name, Runner run) {
  set_waits_itself(suite);
  register_test(suite, name, std::move(run));
}

void register_timed_test(const std::string& step, Runner run) {
  register_test_waiting_itself(step + "/Speed", "timed", std::move(run));
}

// A case that ends its process runs last: nothing after it needs a fresh process. It holds the
// GPU alone by then if anything timed ran before it (wait_for_quiet_gpu() keeps it until exit).
void register_test_last(const std::string& suite, const std::string& name, Runner run) {
  last().push_back({suite, name, std::move(run)});
}

void register_deferred_tests() {
  for (std::vector<Deferred>* held : {&deferred(), &last()}) {
    for (Deferred& d : *held) register_now(d.suite, d.name, std::move(d.run));
    held->clear();
  }
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

std::optional<double> record_speed_step(const course::Step& s) {
  const std::optional<double> gate =
      s.gate ? std::optional<double>(s.gate->fraction_of_ceiling) : std::nullopt;
  current_properties().update(
      course::speed_test_properties(s.ceiling.kernel, s.ceiling.kind, gate));
  return gate;
}

// Records what the report shows for a speed test (course::SpeedFigures reads them); also the
// host-call speed test's (host_timing.cpp).
void record_timing(const PairedTiming& t, const course::GateDecision& d) {
  course::TimingOutcome outcome;
  outcome.gbps = t.student_gbps;
  outcome.ceiling_gbps = t.ceiling_gbps;
  outcome.ratio = t.ratio_summary;
  outcome.pairs = t.ratio.size();
  outcome.stopped_early = t.stopped == course::SamplingState::certain;
  outcome.seconds = t.seconds;
  outcome.first_straddle_pairs = t.first_straddle_pairs;
  outcome.peak_gbps = current_device().datasheet_peak_gbps();
  current_properties().update(course::timing_properties(outcome, d));
}

namespace {

// The draw seed of timed launch number `launch` of a speed test whose seed is `base`: distinct
// for every launch, and never the seed of the case that was checked before the timing.
std::uint64_t launch_seed(std::uint64_t base, std::uint64_t launch) {
  return mix(mix(base) ^ ((launch + 1) * 0xA24BAED4963EE407ull));
}

// Timed launches whose outputs are checked after the timing: a uniform random choice of
// kChecked among all the student's timed launches, however many the loop takes (reservoir
// sampling, Vitter's algorithm R), from a random source the seed does not give away. A kept
// launch's outputs are copied aside on the device (a copy of a few hundred MiB takes a fraction
// of a millisecond), or to the host where the device has no room for kChecked copies.
class CheckedLaunches {
 public:
  static constexpr std::size_t kChecked = 3;
  // Kept launch k's outputs are at places(k).
  struct Kept {
    std::uint64_t draw_seed = 0;
    std::size_t pair = 0;
  };
  // Called after timed pair `pair`'s student launch, which drew its inputs from `draw_seed`.
  void offer(const Case& c, std::uint64_t draw_seed, std::size_t pair, cudaStream_t stream) {
    ++seen_;
    std::size_t slot = seen_ - 1;
    if (seen_ > kChecked) slot = std::uniform_int_distribution<std::size_t>(0, seen_ - 1)(rng_);
    if (slot >= kChecked) return;
    if (kept_.empty()) allocate(c);
    if (slot >= kept_.size()) {
      slot = kept_.size();
      kept_.push_back({});
    }
    kept_[slot] = {draw_seed, pair};
    c.snapshot_outputs(places(slot), !on_device_, stream);
  }
  const std::vector<Kept>& kept() const { return kept_; }
  bool on_host() const { return !on_device_; }
  // Where kept launch k's outputs are, one pointer per buffer of the case (inputs' unused).
  std::vector<void*> places(std::size_t k) {
    std::vector<void*> p;
    for (std::size_t i = 0; i < bytes_.size(); ++i)
      p.push_back(on_device_ ? static_cast<void*>(device_[k]->data() + offset_[i])
                             : static_cast<void*>(host_[k].data() + offset_[i]));
    return p;
  }

 private:
  void allocate(const Case& c) {
    bytes_ = c.output_bytes();
    std::size_t total = 0;
    for (std::size_t b : bytes_) {
      offset_.push_back(total);
      total += b;
    }
    // Room for the copies beside the replays' own buffers (as large as the timed case's).
    on_device_ = free_device_bytes() > kChecked * total + (std::size_t(1) << 30);
    for (std::size_t k = 0; k < kChecked; ++k) {
      if (on_device_)
        device_.push_back(std::make_unique<DeviceBuffer<std::uint8_t>>(total));
      else
        host_.emplace_back(total);
    }
  }
  std::mt19937_64 rng_{std::random_device{}()};
  std::size_t seen_ = 0;
  std::vector<Kept> kept_;
  std::vector<std::size_t> bytes_, offset_;
  bool on_device_ = true;
  std::vector<std::unique_ptr<DeviceBuffer<std::uint8_t>>> device_;
  std::vector<std::vector<std::uint8_t>> host_;
};

}  // namespace

void run_speed(const std::string& lesson, const std::string& step,
               const std::function<void(Case&)>& body) {
  if (quick()) GTEST_SKIP() << course::protocol::kQuickSkipPrefix << "not timed";
  if (std::string why = unsupported(lesson, step); !why.empty()) GTEST_SKIP() << why;
  const course::Step& s = manifest_step(lesson, step);
  const std::optional<double> gate = record_speed_step(s);
  if (not_timed_after_failed_cases(step)) return;
  // The GPU alone from the first check on (quiet_gpu.hpp): its allocations, the clocks sampled and
  // the free memory the checked copies are sized by are then no other process's.
  wait_for_quiet_gpu();

  // 1. Never time a wrong kernel: a kernel that skips work would look fast.
  const std::uint64_t seed = case_seed(step, "timed");
  auto c = std::make_unique<Case>(lesson, step, "timed", Case::Mode::timing, seed);
  std::string skipped;
  const auto first_start = std::chrono::steady_clock::now();
  const bool ran = run_case(*c, body, skipped);
  record(course::speed_key::kFirstCheckSeconds,
         std::chrono::duration<double>(std::chrono::steady_clock::now() - first_start).count());
  if (!skipped.empty()) GTEST_SKIP() << skipped;
  record(course::speed_key::kBytes, c->task_bytes());
  const std::string shape = c->prefix().substr(0, c->prefix().rfind(", seed"));
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

  // 2. Time against the ceiling, interleaved, L2 flushed before every sample, every launch on
  // inputs drawn afresh. The clocks and temperature as found right before and right after go
  // into the report (never locked here).
  try {
    L2Flusher flusher(current_device().l2_bytes);
    CheckedLaunches checked;
    // The timed launches' draw seeds come from a secret 64-bit source, not from the process's
    // printed seed: a kernel that read the first check's inputs could otherwise search the
    // seed's 30 bits and compute the timed launches' inputs (and results) in advance. A kept
    // launch's check uses the draw seed stored with it.
    const std::uint64_t base =
        (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    TimedLaunches k{c->ceiling_launch(), c->student_launch(),
                    [&](std::uint64_t launch, cudaStream_t st) {
                      c->prepare_timed(launch_seed(base, launch), st);
                    },
                    [&](std::uint64_t launch, std::size_t pair, cudaStream_t st) {
                      checked.offer(*c, launch_seed(base, launch), pair, st);
                    }};
    const course::ClockSample before = sample_clocks();
    const PairedTiming t = time_pairs(k, c->task_bytes(), gate, s.ceiling.impossible_above(),
                                      course::sampling_policy(gate), flusher);
    record_clocks(before, sample_clocks());
    const course::GateDecision d =
        course::decide_gate(t.ratio_summary, gate, s.ceiling.impossible_above());
    record_timing(t, d);
    std::size_t memcpy_bytes = 0;
    const auto [src, dst] = c->memcpy_pair(memcpy_bytes);
    if (src && memcpy_bytes > 0)
      record(course::speed_key::kMemcpyGbps, memcpy_gbps(dst, src, memcpy_bytes, flusher));

    // 3. The outputs of timed launches chosen at random, checked by the test's own body on
    // those launches' inputs, drawn again on the device: a kernel that replays or reuses an
    // earlier result fails. One after another, each in the device memory the timed case freed;
    // a body that compares on the device (expect_exact with a device reference) takes
    // milliseconds per check.
    const auto checks_start = std::chrono::steady_clock::now();
    wait(0, "timed launches");
    c.reset();
    const std::vector<CheckedLaunches::Kept>& kept = checked.kept();
    std::vector<std::vector<std::string>> wrong(kept.size());
    for (std::size_t k = 0; k < kept.size(); ++k) {
      // A check's own trouble (a CUDA error, a skip) is the harness's, never "wrong results":
      // only the body's comparisons fill `wrong`.
      Case again(lesson, step, "timed", Case::Mode::timing, seed);
      const std::vector<void*> outputs = checked.places(k);
      again.replay(kept[k].draw_seed, {outputs.begin(), outputs.end()}, checked.on_host());
      try {
        body(again);
      } catch (const SkipCase& e) {
        throw std::logic_error(std::string("the check of a timed launch was skipped: ") + e.what());
      }
      wrong[k] = again.failures();
    }
    record(course::speed_key::kCheckedLaunches, static_cast<double>(kept.size()));
    record(course::speed_key::kCheckSeconds,
           std::chrono::duration<double>(std::chrono::steady_clock::now() - checks_start).count());
    for (std::size_t k = 0; k < kept.size(); ++k)
      if (!wrong[k].empty()) {
        // The conclusion first: the check's own message follows, with the lesson's reading of
        // the output, which may speak of the shape although this shape passed untimed.
        ADD_FAILURE() << fmt::format(
            "{}: timed launch {} of {} ({}), on inputs of its own, left a wrong output, though "
            "the first, untimed launch on this shape was right: the result depends on something "
            "besides the input, an earlier launch (a remembered result) or a race between "
            "threads (run --sanitize). The course checks the outputs of timed launches chosen at "
            "random. What the check found: {}",
            course::protocol::kTimedResultsWrong, kept[k].pair + 1, t.ratio.size(), shape,
            wrong[k].front());
        return;
      }
    if (d.verdict == course::Verdict::fail)
      ADD_FAILURE() << fmt::format("too slow, {}: {:.0f} GB/s against a ceiling of {:.0f} GB/s: {}",
                                   course::protocol::kBelowGate, t.student_gbps, t.ceiling_gbps,
                                   d.reason);
    else if (d.verdict == course::Verdict::impossible)
      ADD_FAILURE() << fmt::format("{}: {:.0f} GB/s against a ceiling of {:.0f} GB/s: {}",
                                   course::protocol::kRejected, t.student_gbps, t.ceiling_gbps,
                                   d.reason);
  } catch (const CudaError& e) {
    ADD_FAILURE() << "while timing on " << lesson << "." << step << ": " << e.what();
  }
}

}  // namespace detail

}  // namespace harness
