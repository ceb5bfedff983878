/// @file lesson.hpp
/// @brief The reusable pieces every lesson's hidden tests are written with: a test case that owns
/// typed, guarded, poisoned device buffers; the launch of a course launcher; exact and tolerant
/// comparisons with messages in the lesson's own coordinates; the speed check against the step's
/// ceiling; and the registration of both under the test names the grader reads
/// ("<step>/Correct.<case>", "<step>/Speed.timed").
///
/// A lesson's test file then holds only what is its own: shapes, the host reference and the
/// wording. For example (the whole hidden-test file of a one-step lesson):
///
/// ```cpp
/// // grader/lessons/02_vector_add/tests.cu
/// #include "harness/lesson.hpp"
/// #include "steps/02_vector_add.hpp"  // generated from the manifest: enum class Step
/// #include "vector_add.cuh"
///
/// namespace {
/// using vector_add::Step;
/// const std::vector<int> kSizes = {1, 2, 31, 33, 257, 1000003};
///
/// void add(harness::Case& c, const int& n) {
///   c.describe("add", fmt::format("n = {}", n));
///   auto a = c.input<float>("a", n), b = c.input<float>("b", n);
///   auto out = c.output<float>("out", n);
///   c.launch(vector_add::launch_add, a, b, out, n);       // the course's launcher
///   c.ceiling(vector_add::launch_copy, a, out, n);       // timed against it (speed test only)
///   c.bytes(3.0 * n * sizeof(float));
///   std::vector<float> sum(n);
///   for (int i = 0; i < n; ++i) sum[i] = a.host()[i] + b.host()[i];
///   c.expect_exact(out, sum);
/// }
/// }  // namespace
///
/// COURSE_TESTS {
///   harness::correctness(Step::add, kSizes, harness::name_n, add);
///   harness::speed(Step::add, [] { return int(harness::timing_elements(3, 4)); }, add);
/// }
/// ```
///
/// What every case checks without being asked (COURSE.md §4): outputs are poisoned
/// (kOutputPoison) before every launch and never-written elements are counted; the guard after
/// every output must be intact ("wrote N elements past out[n-1]"); every input must be unchanged
/// after the launch, and so must the guard after it ("wrote past the end of the input").
#pragma once

#include <cuda_runtime.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/buffer.hpp"
#include "harness/cuda_check.hpp"
#include "harness/data.hpp"
#include "harness/record.hpp"
#include "harness/timing.hpp"

namespace harness {

class Case;

/// Thrown by a Case to skip the test it runs (e.g. a large shape under --quick); caught by the
/// test wrapper, which reports the test as skipped with this message.
struct SkipCase : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Skips the running case under --quick (compute-sanitizer) with `why`, worded as the grader
/// counts quick-mode skips ("quick mode: large shape skipped"). @throws SkipCase, always.
[[noreturn]] void skip_in_quick_mode(const std::string& why);

/// Where an element sits, in the lesson's own words: given the output's name and an element's
/// flat index, e.g. "out[3][5] (row 3, col 5)". See flat() and row_major().
using Where = std::function<std::string(const std::string& name, std::size_t index)>;
/// Extra advice after a mismatch message ("" for none), e.g. what the tail of a float4 copy is.
using Advice = std::function<std::string(const Mismatches& m)>;

/// The failure message of a comparison, as every case words it: "c: 3 of 10 elements wrong (1
/// never written); first mismatch at c[4]: expected 1.5, got 2"; "(N never written)" only when N
/// > 0, so the phrase diagnoses a kernel that skips elements and never one that writes wrong ones.
/// @param name  the output's name, e.g. "c"
/// @param m     the comparison (not ok())
/// @param where locates the first mismatch in the lesson's coordinates
/// @param never what unwritten elements are called ("never written", "never updated")
std::string mismatch_message(const std::string& name, const Mismatches& m, const Where& where,
                             const char* never = "never written");

/// "out[42]".
Where flat();
/// "out[3][5] (row 3, col 5)" for a row-major array of `cols` columns.
Where row_major(std::size_t cols);

namespace detail {

// A buffer a Case owns: its device memory, what the end-of-case checks need, and its role.
struct BufferBase {
  enum class Role { input, output, in_out };
  std::string name;
  Role role = Role::input;
  virtual ~BufferBase() = default;
  virtual std::size_t size() const = 0;
  virtual void* device() = 0;
  virtual std::size_t element_bytes() const = 0;
  virtual void before_launch() = 0;  // outputs: poison; in-out arrays: upload the initial values
  // Messages for what went wrong outside the comparison: guard damage, a changed input.
  virtual std::vector<std::string> end_problems() const = 0;
};

template <typename T>
struct Buffer : BufferBase {
  DeviceBuffer<T> memory;
  std::vector<T> initial;  // inputs and in-out arrays: the values uploaded (the pristine copy)
  Buffer(std::size_t n, std::size_t guard) : memory(n, guard) {}
  std::size_t size() const override { return memory.size(); }
  void* device() override { return memory.data(); }
  std::size_t element_bytes() const override { return sizeof(T); }
  void before_launch() override {
    if (role == Role::output) {
      memory.poison();
    } else if (role == Role::in_out) {
      memory.fill_guard(kOutputPoison);
      memory.upload(initial);
    }
  }
  std::vector<std::string> end_problems() const override;
};

std::string past_end_message(const std::string& name, std::size_t n, std::size_t damaged,
                             bool input);
std::string changed_input_message(const std::string& name, std::size_t changed, std::size_t first);

template <typename T>
std::vector<std::string> Buffer<T>::end_problems() const {
  std::vector<std::string> out;
  const bool input = role == Role::input;
  if (const std::size_t d = memory.guard_damage(input ? kInputGuard : kOutputPoison); d > 0)
    out.push_back(past_end_message(name, memory.size(), d, input));
  if (input) {
    const std::vector<T> now = memory.download();
    const Mismatches changed = compare_bits(initial, now, [](std::size_t) { return false; });
    if (!changed.ok()) out.push_back(changed_input_message(name, changed.wrong, changed.first));
  }
  return out;
}

// Launch arguments: buffer handles become device pointers, everything else is passed as is.
template <typename X>
const X& unwrap(const X& x) {
  return x;
}

}  // namespace detail

/// A read-only input the Case uploaded: device pointer plus the pristine host copy.
template <typename T>
class Input {
 public:
  const T* data() const { return buf_->memory.data(); }     ///< device pointer
  std::size_t size() const { return buf_->memory.size(); }  ///< elements (guard excluded)
  /// The values uploaded, unchanged: what a host reference is computed from.
  const std::vector<T>& host() const { return buf_->initial; }

 private:
  friend class Case;
  explicit Input(detail::Buffer<T>* b) : buf_(b) {}
  detail::Buffer<T>* buf_;
};

/// An output the Case poisons before every launch and checks past its end afterwards.
template <typename T>
class Output {
 public:
  T* data() const { return buf_->memory.data(); }           ///< device pointer
  std::size_t size() const { return buf_->memory.size(); }  ///< elements (guard excluded)
  const std::string& name() const { return buf_->name; }    ///< as in messages
  /// Copies the elements to the host. @throws CudaError.
  std::vector<T> download() const { return buf_->memory.download(); }

 private:
  friend class Case;
  explicit Output(detail::Buffer<T>* b) : buf_(b) {}
  detail::Buffer<T>* buf_;
};

/// An array updated in place (read and written, e.g. particle positions): uploaded from its
/// initial values before every launch; an element still equal to its initial value counts as
/// never updated.
template <typename T>
class InOut {
 public:
  T* data() const { return buf_->memory.data(); }               ///< device pointer
  std::size_t size() const { return buf_->memory.size(); }      ///< elements (guard excluded)
  const std::string& name() const { return buf_->name; }        ///< as in messages
  const std::vector<T>& host() const { return buf_->initial; }  ///< the initial values
  /// Copies the elements to the host. @throws CudaError.
  std::vector<T> download() const { return buf_->memory.download(); }

 private:
  friend class Case;
  explicit InOut(detail::Buffer<T>* b) : buf_(b) {}
  detail::Buffer<T>* buf_;
};

namespace detail {
template <typename T>
const T* unwrap(const Input<T>& x) {
  return x.data();
}
template <typename T>
T* unwrap(const Output<T>& x) {
  return x.data();
}
template <typename T>
T* unwrap(const InOut<T>& x) {
  return x.data();
}
}  // namespace detail

/// One test case: one shape of one step, run either for correctness (any shape, guards after
/// every buffer) or as the speed test's verification (the timing shape, no guards). Written by
/// the lesson as a function `void body(Case&, const Param&)` that allocates, launches, and
/// compares; the harness runs it and adds the checks every case needs.
class Case {
 public:
  /// Why the case runs: to check a shape, or to verify (and then time) the timing shape.
  enum class Mode { correctness, timing };

  /// A case of `lesson`.`step` named `name` (the test's last part), with inputs from `seed`.
  Case(std::string lesson, std::string step, std::string name, Mode mode, std::uint64_t seed);
  ~Case();
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;

  Mode mode() const { return mode_; }                    ///< correctness or timing
  bool timing() const { return mode_ == Mode::timing; }  ///< the speed test's shape
  std::uint64_t seed() const { return seed_; }           ///< this case's seed (in messages)
  const std::string& step() const { return step_; }      ///< the step it grades

  /// Names the case in every message ("transpose_tiled on 33x31 (rows x cols)") and the shape in
  /// the report (the speed test's "ceiling: copy_tiled on 8192x8192 ..."). Call it before the
  /// first buffer.
  /// @param kernel what runs, e.g. "transpose_tiled"
  /// @param shape  the problem, with its unit or layout, e.g. "33x31 (rows x cols)"
  void describe(std::string kernel, std::string shape);

  /// A read-only input of `n` values from random_values<T> (a seed of its own per input), with
  /// guard elements holding kInputGuard. @throws SkipCase for a large shape under --quick.
  template <typename T>
  Input<T> input(const std::string& name, std::size_t n) {
    admit(n);  // before drawing: a skipped large shape must not cost its random values
    return input<T>(name, random_values<T>(n, mix(seed_ + ++inputs_)));
  }
  /// A read-only input holding `values` (for types random_values does not cover, or chosen data).
  template <typename T>
  Input<T> input(const std::string& name, std::vector<T> values) {
    detail::Buffer<T>* b = add<T>(name, values.size(), detail::BufferBase::Role::input);
    b->initial = std::move(values);
    b->memory.fill_guard(kInputGuard);
    b->memory.upload(b->initial);
    return Input<T>(b);
  }
  /// An output of `n` elements, poisoned with kOutputPoison before every launch, guard included.
  template <typename T>
  Output<T> output(const std::string& name, std::size_t n) {
    detail::Buffer<T>* b = add<T>(name, n, detail::BufferBase::Role::output);
    b->memory.poison();
    return Output<T>(b);
  }
  /// An array updated in place, holding `values` before every launch; its guard is an output's.
  template <typename T>
  InOut<T> in_out(const std::string& name, std::vector<T> values) {
    detail::Buffer<T>* b = add<T>(name, values.size(), detail::BufferBase::Role::in_out);
    b->initial = std::move(values);
    b->before_launch();
    return InOut<T>(b);
  }

  /// Runs the course launcher `f(args..., stream)` once (buffers passed as their device
  /// pointers), after poisoning every output and re-uploading every in-out array, and waits for
  /// it (harness::wait: a kernel that does not finish counts as hung). The speed test times this
  /// same call. @throws CudaError when the launch or the kernel fails.
  template <typename F, typename... A>
  void launch(F f, A... args) {
    student_ = [f, args...](cudaStream_t s) { return f(detail::unwrap(args)..., s); };
    for (auto& b : buffers_) b->before_launch();
    check(student_(0), "launch " + what_);
    wait(0, what_);
  }
  /// The step's ceiling for the speed test: the course's copy (or read) rung or library call on
  /// the same buffers, `f(args..., stream)`. Not run when checking correctness.
  template <typename F, typename... A>
  void ceiling(F f, A... args) {
    ceiling_ = [f, args...](cudaStream_t s) { return f(detail::unwrap(args)..., s); };
  }
  /// Bytes the task must read plus write (for effective bandwidth), for the speed test.
  void bytes(double b) { bytes_ = b; }

  /// Compares `out` with `expected` bit for bit; one failure message with the counts and the
  /// first mismatch, located by `where`, plus `advice`.
  template <typename T>
  void expect_exact(const Output<T>& out, const std::vector<T>& expected, Where where = flat(),
                    Advice advice = {}) {
    const std::vector<T> got = out.download();
    report(out.name(),
           compare_bits(expected, got, [&](std::size_t i) { return still_poisoned(got[i]); }),
           where, advice, "never written");
  }
  /// Compares an in-place array with `expected` bit for bit (unwritten = still its initial value).
  template <typename T>
  void expect_exact(const InOut<T>& a, const std::vector<T>& expected, Where where = flat(),
                    Advice advice = {}) {
    const std::vector<T> got = a.download();
    report(a.name(),
           compare_bits(
               expected, got,
               [&](std::size_t i) { return std::memcmp(&got[i], &a.host()[i], sizeof(T)) == 0; }),
           where, advice, "never updated");
  }
  /// Compares `out` with `exact` (double precision) within `tolerance[i]` per element.
  void expect_near(const Output<float>& out, const std::vector<double>& exact,
                   const std::vector<double>& tolerance, Where where = flat(), Advice advice = {});
  /// As above for an array updated in place (unwritten = still its initial value).
  void expect_near(const InOut<float>& a, const std::vector<double>& exact,
                   const std::vector<double>& tolerance, Where where = flat(), Advice advice = {});

  /// Adds the failure message of a comparison, worded as expect_exact's and expect_near's, for
  /// a comparison made outside this class (e.g. on harness/pitched.hpp's buffers): the counts,
  /// the first mismatch located by `where`, then `advice`; `never` names what unwritten elements
  /// are ("never written"). Adds nothing when `m` is ok.
  void report(const std::string& name, const Mismatches& m, const Where& where,
              const Advice& advice, const char* never);

  /// Takes a buffer of a kind this header does not define (a type derived from
  /// detail::BufferBase, e.g. harness/pitched.hpp's pitched matrices): from then on it is
  /// prepared before every launch and checked at the end of the case like the Case's own
  /// buffers. @throws SkipCase, as input() does, for a large buffer under --quick.
  template <typename B>
  B* adopt(std::unique_ptr<B> buffer) {
    admit(buffer->size());
    B* raw = buffer.get();
    buffers_.push_back(std::move(buffer));
    return raw;
  }

  /// Adds a failure of this case (prefixed with the case's description and seed).
  void fail(const std::string& message);
  /// The failures so far, without prefix: first the comparisons, then the end-of-case checks.
  const std::vector<std::string>& failures() const { return failures_; }

  // ---- used by the test wrapper (lesson.cpp) ----
  /// Checks every buffer's guard and every input for changes (adds failures).
  void check_buffers();
  /// "transpose_naive on 33x31 (rows x cols), seed 123".
  std::string prefix() const;
  /// Frees the buffers (before the speed test's second verification allocates its own).
  void release();
  const Launch& student_launch() const { return student_; }  ///< the last launch()
  const Launch& ceiling_launch() const { return ceiling_; }  ///< what ceiling() set
  double task_bytes() const { return bytes_; }               ///< what bytes() set
  /// The first input and output (or in-out) buffers, for the cudaMemcpy context figure.
  std::pair<const void*, void*> memcpy_pair(std::size_t& bytes) const;

 private:
  template <typename T>
  detail::Buffer<T>* add(const std::string& name, std::size_t n, detail::BufferBase::Role role) {
    admit(n);
    auto b = std::make_unique<detail::Buffer<T>>(n, guard_for(n));
    b->name = name;
    b->role = role;
    detail::Buffer<T>* raw = b.get();
    buffers_.push_back(std::move(b));
    return raw;
  }
  void admit(std::size_t n) const;             // throws SkipCase for large shapes under --quick
  std::size_t guard_for(std::size_t n) const;  // none when timing or under compute-sanitizer

  std::string lesson_, step_, name_, what_;
  Mode mode_;
  std::uint64_t seed_;
  int inputs_ = 0;
  std::vector<std::unique_ptr<detail::BufferBase>> buffers_;
  std::vector<std::string> failures_;
  Launch student_, ceiling_;
  double bytes_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Registration. A lesson's test file registers its tests in a COURSE_TESTS block; the step is
// the enum the build generates from the manifest (steps/<lesson>.hpp), whose lesson_id() and
// step_name() are found by argument-dependent lookup.

namespace detail {
using Runner = std::function<void()>;
void register_test(const std::string& suite, const std::string& name, Runner run);
void run_correctness(const std::string& lesson, const std::string& step, const std::string& name,
                     const std::function<void(Case&)>& body);
void run_speed(const std::string& lesson, const std::string& step,
               const std::function<void(Case&)>& body);
}  // namespace detail

/// Registers "<step>/Correct.<name(p)>" for every p in `params`: each runs `body(case, p)` on a
/// fresh Case in correctness mode, then the buffer checks. Skipped (with the reason) when the GPU
/// is too old for the step, and for large shapes under --quick.
/// @param step   the step, from the generated steps/LESSON.hpp
/// @param params the cases: shapes, counts, ... (P is copied into each test)
/// @param name   a callable `std::string(const P&)`, e.g. name_n, or a lambda
/// @param body   a callable `void(Case&, const P&)`
template <typename Step, typename P, typename Name, typename BodyFn>
void correctness(Step step, const std::vector<P>& params, Name name, BodyFn body) {
  const std::string lesson = lesson_id(step), s = step_name(step);
  for (const P& p : params) {
    const std::string n = name(p);
    detail::register_test(s + "/Correct", n, [=] {
      detail::run_correctness(lesson, s, n, [&](Case& c) { body(c, p); });
    });
  }
}

/// Registers "<step>/Speed.timed": `body` runs on the timing shape `timing_param()` (called in
/// the test process, so it may read the device: see timing_side()), then the launch it made is
/// timed against the ceiling it set, interleaved, L2 flushed before every sample; then `body`
/// runs again on fresh inputs, so a kernel that replays or caches its result fails. The gate and
/// the ceiling's name and kind come from the manifest.
/// @param step         the step, from the generated steps/LESSON.hpp
/// @param timing_param a callable returning the timing shape P
/// @param body         a callable `void(Case&, const P&)`, usually the correctness body
template <typename Step, typename TimingParam, typename BodyFn>
void speed(Step step, TimingParam timing_param, BodyFn body) {
  const std::string lesson = lesson_id(step), s = step_name(step);
  detail::register_test(s + "/Speed", "timed", [=] {
    detail::run_speed(lesson, s, [&](Case& c) { body(c, timing_param()); });
  });
}

/// "n_1027": a case name for a count.
std::string name_n(const int& n);

/// Runs the code after it once, before main(), to register the file's tests.
#define COURSE_TESTS                                                                             \
  static void course_register_tests();                                                           \
  [[maybe_unused]] static const bool course_tests_registered_ = (course_register_tests(), true); \
  static void course_register_tests()

// ---------------------------------------------------------------------------------------------
// Timing shapes: every speed test's working set is at least 4x the L2 (COURSE.md §5).

/// Side of a square timing matrix of `buffers` arrays of `element_bytes`-byte elements: 8192
/// (where our gates were calibrated), doubled until the arrays are at least 4x the L2, halved
/// while they would not fit in 70% of free memory beside the L2 flush buffer; a multiple of 32.
long long timing_side(std::size_t buffers, std::size_t element_bytes);
/// Elements per array for a 1-D timing shape: timing_side(buffers, element_bytes) squared
/// (2^26 on GPUs with up to 128 MiB of L2).
long long timing_elements(std::size_t buffers, std::size_t element_bytes);

}  // namespace harness
