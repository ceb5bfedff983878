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
/// What every case checks without being asked (docs/INSTRUCTORS.md, "Adding a lesson"): outputs are
/// poisoned (kOutputPoison) before every launch and never-written elements are counted; the guard
/// after every output must be intact ("wrote N elements past out[n-1]"); every input must be
/// unchanged after the launch, and so must the guard after it ("wrote past the end of the input").
#pragma once

#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "harness/buffer.hpp"
#include "harness/cuda_check.hpp"
#include "harness/data.hpp"
#include "harness/draw.hpp"
#include "harness/record.hpp"
#include "harness/timing.hpp"

#if defined(__CUDACC__)
#include "harness/fill.cuh"
#endif

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

/// Extra advice after a mismatch message ("" for none), e.g. what the tail of a float4 copy is.
using Advice = std::function<std::string(const Mismatches& m)>;

namespace detail {

// A buffer a Case owns: its device memory, what the end-of-case checks need, and its role.
struct BufferBase {
  enum class Role { input, output, in_out };
  std::string name;
  Role role = Role::input;
  // Inputs and in-out arrays drawn on the device (harness/fill.cuh): draws the elements anew from
  // `seed` on `stream`. Empty for values the hidden test handed over as a vector, which cannot be
  // drawn afresh for a timed launch.
  std::function<cudaError_t(std::uint64_t seed, cudaStream_t stream)> redraw;
  int ordinal = 0;           // drawn buffers: the k-th of its case (1, 2, ...)
  std::uint64_t seed = 0;    // drawn buffers: the seed of the values now in the buffer
  bool timed = false;        // made by the speed test's case (drawn anew before every launch)
  bool device_only = false;  // Case::keep_on_device(): no host copy, checks on the device
  bool adjusted = false;     // Input::set() changed a drawn value (no longer its draw)
  // Drawn inputs: the elements that are no longer what was drawn, counted on the device.
  std::function<cudaError_t(DeviceCount&)> count_changed;
  virtual ~BufferBase() = default;
  virtual std::size_t size() const = 0;
  virtual void* device() = 0;
  virtual std::size_t element_bytes() const = 0;
  virtual void before_launch() = 0;  // outputs: poison; in-out arrays: upload the initial values
  // Messages for what went wrong outside the comparison: guard damage, a changed input.
  virtual std::vector<std::string> end_problems() const = 0;
  // After redraw(): the guard's sentinel, then the values drawn become the pristine host copy.
  virtual void keep_drawn_values() = 0;
  // A timed launch's preparation, enqueued on `stream` outside the timed region: drawn buffers
  // are drawn anew from `seed`, outputs poisoned (elements only: the timing shape has no guard).
  virtual void prepare_timed(std::uint64_t seed, cudaStream_t stream) = 0;
  // The elements' bytes as a timed launch left them (outputs and in-out arrays), copied on
  // `stream` into `dst` (size() * element_bytes() bytes, dense; device memory, or host memory
  // with `to_host`), and their return from there into the buffer of a replay (Case::replay()),
  // to check that launch after the timing.
  virtual void snapshot(void* dst, bool to_host, cudaStream_t stream) const = 0;
  virtual void restore(const void* src, bool from_host) = 0;
  // The speed test's cases (the first check and the replays) leave the host copy of a drawn
  // buffer for later: host() draws it on the host when a test body asks for it (the same bits,
  // harness/draw.hpp), so a body that compares on the device never pays for it. Empty where the
  // buffer has no host draw (its values are then read back right after the draw).
  std::function<void(std::uint64_t seed)> draw_on_host;
  // Whether the pristine host copy holds the values drawn. Atomic, and only read once true:
  // host() is called for every element from the threads of harness::parallel_for (host
  // references, comparisons), and a store on every call made those threads fight over its cache
  // line (0.7 s of CPU for 4 M elements of 03's stub on our H200, nineteenth session).
  std::atomic<bool> host_ready{true};
  std::mutex host_draw;  // one thread draws the host copy, the others wait for it
  // The pristine host copy, drawn now if it was left for later. @throws std::logic_error under
  // Case::keep_on_device() (there is none).
  void ensure_host() {
    if (device_only)
      throw std::logic_error("the host copy of " + name + ": the case keeps it on the device");
    if (host_ready.load(std::memory_order_acquire)) return;
    const std::lock_guard<std::mutex> lock(host_draw);
    if (host_ready.load(std::memory_order_relaxed)) return;
    draw_on_host(seed);
    host_ready.store(true, std::memory_order_release);
  }
};

template <typename T>
struct Buffer : BufferBase {
  DeviceBuffer<T> memory;
  std::vector<T> initial;  // inputs and in-out arrays: the values uploaded (the pristine copy)
  Buffer(std::size_t count, std::size_t guard) : memory(count, guard) {}
  std::size_t size() const override { return memory.size(); }
  void* device() override { return memory.data(); }
  std::size_t element_bytes() const override { return sizeof(T); }
  void before_launch() override {
    if (role == Role::output) {
      memory.poison();
    } else if (role == Role::in_out) {
      memory.fill_guard(kOutputPoison);
      if (redraw) {  // the same values, drawn again on the device: no upload
        check(redraw(seed, 0), "draw " + name + " again");
      } else {
        memory.upload(initial);
      }
    }
  }
  std::vector<std::string> end_problems() const override;
  void keep_drawn_values() override {
    memory.fill_guard(role == Role::input ? kInputGuard : kOutputPoison);
    if (!device_only) initial = memory.download();
  }
  void prepare_timed(std::uint64_t seed, cudaStream_t stream) override {
    if (role == Role::output) {
      check(cudaMemsetAsync(memory.data(), kOutputPoison, memory.bytes(), stream),
            "poison " + name + " before a timed launch");
    } else {
      check(redraw(seed, stream), "draw " + name + " afresh before a timed launch");
    }
  }
  void snapshot(void* dst, bool to_host, cudaStream_t stream) const override {
    check(cudaMemcpyAsync(dst, memory.data(), memory.bytes(),
                          to_host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice, stream),
          "keep " + name + " of a timed launch");
  }
  void restore(const void* src, bool from_host) override {
    check(cudaMemcpy(memory.data(), src, memory.bytes(),
                     from_host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice),
          "put back " + name + " of a timed launch");
  }
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
  if (input && device_only) {
    DeviceCount changed;
    check(count_changed(changed), "check " + name + " on the device");
    if (changed.wrong > 0) out.push_back(changed_input_message(name, changed.wrong, changed.first));
  } else if (input) {
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
  const T* data() const { return buf_->memory.data(); }  ///< device pointer
  std::size_t size() const { return buf_->size(); }      ///< elements (guard excluded)
  /// The values uploaded, unchanged: what a host reference is computed from. @throws
  /// std::logic_error in a Case::keep_on_device() case (there is no host copy).
  const std::vector<T>& host() const {
    buf_->ensure_host();
    return buf_->initial;
  }
  /// The seed the values were drawn from (element i is draw(seed(), i)); 0 for values handed
  /// over as a vector.
  std::uint64_t seed() const { return buf_->seed; }
  /// Sets element `i` to `value` on the device and in host(), before the launch: a correctness
  /// case's adjustment of its drawn data (e.g. a sum that must not come out as 0). Not in the
  /// speed test, whose inputs are drawn anew for every launch without it: there it throws
  /// std::logic_error. @throws CudaError.
  void set(std::size_t i, T value) const {
    if (buf_->timed)
      throw std::logic_error("Input::set on " + buf_->name + ": not in the speed test");
    buf_->initial.at(i) = value;
    buf_->adjusted = true;
    check(cudaMemcpy(buf_->memory.data() + i, &value, sizeof(T), cudaMemcpyHostToDevice),
          "set an element of " + buf_->name);
  }

 private:
  friend class Case;
  explicit Input(detail::Buffer<T>* b) : buf_(b) {}
  detail::Buffer<T>* buf_;
};

/// An output the Case poisons before every launch and checks past its end afterwards.
template <typename T>
class Output {
 public:
  T* data() const { return buf_->memory.data(); }         ///< device pointer
  std::size_t size() const { return buf_->size(); }       ///< elements (guard excluded)
  const std::string& name() const { return buf_->name; }  ///< as in messages
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
  T* data() const { return buf_->memory.data(); }         ///< device pointer
  std::size_t size() const { return buf_->size(); }       ///< elements (guard excluded)
  const std::string& name() const { return buf_->name; }  ///< as in messages
  /// The initial values. @throws std::logic_error in a Case::keep_on_device() case.
  const std::vector<T>& host() const {
    buf_->ensure_host();
    return buf_->initial;
  }
  std::uint64_t seed() const { return buf_->seed; }  ///< as Input::seed()
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

// The element type of an Output or an InOut, and what its unwritten elements are called.
template <typename A>
struct Compared;
template <typename T>
struct Compared<Output<T>> {
  using type = T;
  static constexpr const char* never = "never written";
};
template <typename T>
struct Compared<InOut<T>> {
  using type = T;
  static constexpr const char* never = "never updated";
};
}  // namespace detail

/// A step's reference in two forms, for Case::expect_exact and Case::expect_near: `host()`
/// computes the expected elements on the host from the inputs' host() copies (for exact
/// comparisons a std::vector<T>; for tolerant ones a std::pair of vectors, exact values in
/// double and tolerances); `device` is a functor whose `__device__ operator()(std::size_t i)
/// const` gives element i's expected value (T, or harness::Near) from the inputs' draws, that
/// is from their seeds (Input::seed()) and never from the device buffers, which the kernel under
/// test could have changed. For an array updated in place the functor also has `__device__ T
/// initial(std::size_t i) const`, the element's value before the launch. The speed test compares
/// on the device with `device` (milliseconds for hundreds of MiB); correctness cases compare on
/// the host with `host()` and also check, on every element, that `device` agrees with it, so the
/// device reference is trusted only as far as the host one vouches for it.
template <typename Host, typename Device>
struct Reference {
  Host host;      ///< callable: the expected elements, computed on the host
  Device device;  ///< functor: element i's expected value, computed on the device from draws
};

/// Makes a Reference: `reference([&] { return host_transpose(in.host(), r, c); },
/// TransposeOf{in.seed(), r, c})`.
template <typename Host, typename Device>
Reference<Host, Device> reference(Host host, Device device) {
  return {std::move(host), std::move(device)};
}

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

  /// A read-only input of `n` values drawn on the device by `draw` (harness/draw.hpp; by default
  /// the course's random values of T) from a seed of its own (the case's seed and the input's
  /// place among the case's drawn buffers), with guard elements holding kInputGuard. host() holds
  /// the values drawn. In the speed test the input is drawn anew before every timed launch, so
  /// no launch sees the values of an earlier one. Defined in nvcc-compiled code only (the draw
  /// runs in a kernel). @throws SkipCase for a large shape under --quick; CudaError.
  template <typename T, typename Draw = RandomValues<T>>
  Input<T> input(const std::string& name, std::size_t n, Draw draw = {});
  /// A read-only input holding `values` (chosen data for a correctness case). Not allowed in the
  /// speed test, whose inputs must be drawn anew for every timed launch: there it throws
  /// std::logic_error (a mistake in the hidden test).
  template <typename T>
  Input<T> input(const std::string& name, std::vector<T> values) {
    refuse_handed_values(name);
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
  /// An array updated in place, drawn as input() draws (and anew before every timed launch),
  /// holding those values again before every correctness launch; its guard is an output's.
  template <typename T, typename Draw = RandomValues<T>>
  InOut<T> in_out(const std::string& name, std::size_t n, Draw draw = {});
  /// An array updated in place, holding `values` before every launch (correctness cases only,
  /// as input(name, values)).
  template <typename T>
  InOut<T> in_out(const std::string& name, std::vector<T> values) {
    refuse_handed_values(name);
    detail::Buffer<T>* b = add<T>(name, values.size(), detail::BufferBase::Role::in_out);
    b->initial = std::move(values);
    b->before_launch();
    return InOut<T>(b);
  }

  /// Keeps this case's arrays on the device: inputs get no host copy (Input::host() throws), the
  /// unchanged-input check is made on the device, and the body compares with a Reference, on the
  /// device. For cases of several GiB, whose copies to and from the host, and
  /// host loops over them, would take the host tens of seconds (lesson 03's 2^31 elements). Call
  /// it before the first buffer.
  void keep_on_device() { device_only_ = true; }

  /// Refuses an input named `name` handed over as fixed values in the speed test (whose inputs
  /// are drawn anew for every timed launch). @throws std::logic_error (a mistake in the hidden
  /// test) when timing().
  void refuse_handed_values(const std::string& name) const;

  /// Draws buffer `b` now (made by input(), in_out() or a pitched input): gives it the next
  /// ordinal and its seed, runs b.redraw and keeps the values as its pristine copy.
  /// @throws CudaError.
  void draw(detail::BufferBase& b);

  /// Runs the course launcher `f(args..., stream)` once (buffers passed as their device
  /// pointers), after poisoning every output and re-uploading every in-out array, and waits for
  /// it (harness::wait: a kernel that does not finish counts as hung). The speed test times this
  /// same call. @throws CudaError when the launch or the kernel fails.
  template <typename F, typename... A>
  void launch(F f, A... args) {
    student_ = [f, args...](cudaStream_t s) { return f(detail::unwrap(args)..., s); };
    if (replaying()) return restore_replayed();  // a timed launch's output, checked afterwards
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
  /// Floating-point operations the task must do (2 M N K for a matrix product), for a step whose
  /// speed is read as a FLOP rate: the speed test's report then shows TFLOP/s beside GB/s
  /// (course::SpeedFigures::flops). Optional; the gate is the ratio to the ceiling either way.
  void flops(double f);

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
  /// Compares `a` (an Output or an InOut) with a Reference bit for bit: on the device in the
  /// speed test and under keep_on_device(), on the host otherwise, where the device reference is
  /// first checked against the host one (and, for an InOut, its initial(i) against the values
  /// drawn). Unwritten elements are those still poisoned (Output) or still at
  /// ref.device.initial(i) (InOut). Defined in nvcc-compiled code only. @throws std::logic_error
  /// when the two references disagree (a mistake in the hidden test).
  template <typename A, typename H, typename D>
  void expect_exact(const A& a, const Reference<H, D>& ref, Where where = flat(),
                    Advice advice = {});
  /// As above for a tolerant Reference of a float Output or InOut (host(): exact values and
  /// tolerances; device: harness::Near per element).
  template <typename A, typename H, typename D>
  void expect_near(const A& a, const Reference<H, D>& ref, Where where = flat(),
                   Advice advice = {});
  /// Whether every input and in-out array of the case was drawn (Case::input(name, n, draw))
  /// and left as drawn: then a device reference, which computes from the draws, applies.
  bool all_drawn() const;
  /// Checks a device reference's values `device` against the host reference's `host` (element
  /// by element, bit for bit), where all_drawn(). @throws std::logic_error on a disagreement.
  template <typename T>
  void vouch(const std::vector<T>& host, const std::vector<T>& device) const {
    const Mismatches m = compare_bits(host, device, [](std::size_t) { return false; });
    if (!m.ok()) disagree(m.first, m.expected, m.got);
  }
  /// As vouch() for a tolerant reference: exact values agree within 1e-12 relative, and so do
  /// the tolerances.
  void vouch(const std::vector<double>& exact, const std::vector<double>& tolerance,
             const std::vector<Near>& device) const;
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

  /// Skips the case when a buffer of `n` elements is too large for the mode: more than 2^16
  /// under --quick (compute-sanitizer), more than kLargestQuickCase (harness/record.hpp) in a
  /// correctness case under --skip-large (the grader's --quick). The Case's own buffers ask for
  /// themselves; a case whose arrays are not the Case's (host code's, which the student's function
  /// allocates on the device) calls it before its first allocation. @throws SkipCase.
  void admit(std::size_t n) const;

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

  /// Prepares the timed launch whose inputs come from `draw_seed`, enqueued on `stream`: every
  /// drawn buffer drawn anew from mix(draw_seed + its ordinal), as a Case whose draws start from
  /// `draw_seed` draws them; every output poisoned. @throws CudaError.
  void prepare_timed(std::uint64_t draw_seed, cudaStream_t stream);
  /// Bytes of each buffer a launch writes (outputs and in-out arrays; 0 for inputs), in the
  /// order of the buffers: what snapshot_outputs() copies.
  std::vector<std::size_t> output_bytes() const;
  /// Copies what the last launch left in the outputs and in-out arrays to `dst[i]`
  /// (output_bytes()[i] bytes of device memory, or of host memory with `to_host`; unused for
  /// inputs), enqueued on `stream`.
  void snapshot_outputs(const std::vector<void*>& dst, bool to_host, cudaStream_t stream) const;
  /// Makes this case a replay of a timed launch: its draws start from `draw_seed` (so its inputs
  /// are that launch's, drawn on the device), and launch() puts that launch's outputs back into
  /// the outputs instead of launching, from `outputs[i]` for buffer i (device memory, or host
  /// memory with `from_host`; as snapshot_outputs() wrote them), so the body's own comparisons
  /// check the timed launch.
  void replay(std::uint64_t draw_seed, std::vector<const void*> outputs, bool from_host);
  /// Whether launch() replays a timed launch's outputs (see replay()).
  bool replaying() const { return replaying_; }

 private:
  template <typename T>
  detail::Buffer<T>* add(const std::string& name, std::size_t n, detail::BufferBase::Role role) {
    admit(n);
    auto b = std::make_unique<detail::Buffer<T>>(n, guard_for(n));
    b->name = name;
    b->role = role;
    b->timed = timing();
    b->device_only = device_only_;
    detail::Buffer<T>* raw = b.get();
    buffers_.push_back(std::move(b));
    return raw;
  }
  std::size_t guard_for(std::size_t n) const;  // none when timing or under compute-sanitizer
  void restore_replayed();                     // replay()'s outputs into buffers
  // An in-place array's device reference must start from the values drawn (vouch()); an output
  // has no initial values to check.
  template <typename T, typename D>
  void vouch_initial(const InOut<T>& a, const D& device) const;
  template <typename T, typename D>
  void vouch_initial(const Output<T>&, const D&) const {}
  [[noreturn]] void disagree(std::size_t i, const std::string& host,
                             const std::string& device) const;

  std::string lesson_, step_, name_, what_;
  Mode mode_;
  std::uint64_t seed_;
  std::uint64_t draw_seed_;  // drawn buffer k gets mix(draw_seed_ + k); seed_ unless replaying
  bool replaying_ = false;
  bool device_only_ = false;
  std::vector<const void*> replayed_;
  bool replayed_from_host_ = false;
  int inputs_ = 0;
  std::vector<std::unique_ptr<detail::BufferBase>> buffers_;
  std::vector<std::string> failures_;
  Launch student_, ceiling_;
  double bytes_ = 0;
};

#if defined(__CUDACC__)
namespace detail {
// Gives a linear buffer its draw: on the device (the case's values, and every launch of the speed
// test) and on the host (the speed test's host copy, drawn only when a body asks for it).
template <typename T, typename Draw>
void give_draw(Buffer<T>* b, std::size_t n, Draw draw) {
  b->redraw = [p = b->memory.data(), n, draw](std::uint64_t seed, cudaStream_t stream) {
    return fill_on_device(p, n, seed, draw, stream);
  };
  b->draw_on_host = [b, n, draw](std::uint64_t seed) {
    b->initial = draw_values<T>(n, seed, draw);
  };
}
}  // namespace detail

template <typename T, typename Draw>
Input<T> Case::input(const std::string& name, std::size_t n, Draw draw) {
  detail::Buffer<T>* b = add<T>(name, n, detail::BufferBase::Role::input);
  detail::give_draw(b, n, draw);
  b->count_changed = [b, draw](DeviceCount& d) {
    return count_changed_on_device(static_cast<const T*>(b->memory.data()), b->memory.size(),
                                   b->seed, draw, d);
  };
  this->draw(*b);
  return Input<T>(b);
}

template <typename T, typename Draw>
InOut<T> Case::in_out(const std::string& name, std::size_t n, Draw draw) {
  detail::Buffer<T>* b = add<T>(name, n, detail::BufferBase::Role::in_out);
  detail::give_draw(b, n, draw);
  this->draw(*b);
  return InOut<T>(b);
}
namespace detail {
// A comparison made on the device by `judge` (count_wrong's judge) over n elements read by
// `got`, worded as the host comparisons: counts, and the first mismatch's two values read back;
// `expected_at(i)` shows the reference's value at i.
template <typename T, typename Got, typename Judge, typename ShowExpected>
Mismatches judge_on_device(Got got, std::size_t n, Judge judge, ShowExpected expected_at) {
  DeviceCount d;
  check(count_on_device(n, judge, d), "compare on the device");
  Mismatches m;
  m.total = n;
  m.wrong = d.wrong;
  m.unwritten = d.unwritten;
  if (d.wrong == 0) return m;
  m.first = d.first;
  m.got = show(evaluate_on_device<T>(got, d.first, 1)[0]);
  m.expected = expected_at(d.first);
  m.first_unwritten = evaluate_on_device<int>(judge, d.first, 1)[0] == 2;
  return m;
}

template <typename T, typename Got, typename D, typename Before>
Mismatches exact_on_device(Got got, std::size_t n, const D& device, Before before) {
  return judge_on_device<T>(
      got, n, SameBits<T, Got, D, Before>{got, device, before},
      [&](std::size_t i) { return show(static_cast<T>(evaluate_on_device<T>(device, i, 1)[0])); });
}

template <typename Got, typename D, typename Before>
Mismatches near_on_device(Got got, std::size_t n, const D& device, Before before) {
  return judge_on_device<float>(
      got, n, Within<Got, D, Before>{got, device, before},
      [&](std::size_t i) { return show(evaluate_on_device<Near>(device, i, 1)[0].exact); });
}

// The values before the launch of an array updated in place, from its device reference.
template <typename T, typename D>
struct InitialOf {
  D device;
  __device__ T operator()(std::size_t i) const { return device.initial(i); }
};

// What an element held before the launch: an output's poison, or an in-place array's initial
// value as its device reference gives it.
template <typename T, typename D>
StillPoisoned before_launch_of(const Output<T>&, const D&) {
  return {};
}
template <typename T, typename D>
StillInitial<D> before_launch_of(const InOut<T>&, const D& device) {
  return {device};
}
}  // namespace detail

template <typename A, typename H, typename D>
void Case::expect_exact(const A& a, const Reference<H, D>& ref, Where where, Advice advice) {
  using T = typename detail::Compared<A>::type;
  if (timing() || device_only_) {
    report(a.name(),
           detail::exact_on_device<T>(ArrayElement<T>{a.data()}, a.size(), ref.device,
                                      detail::before_launch_of(a, ref.device)),
           where, advice, detail::Compared<A>::never);
    return;
  }
  const std::vector<T> expected = ref.host();
  if (all_drawn()) {
    vouch(expected, detail::evaluate_on_device<T>(ref.device, 0, expected.size()));
    vouch_initial(a, ref.device);
  }
  expect_exact(a, expected, where, advice);
}

template <typename A, typename H, typename D>
void Case::expect_near(const A& a, const Reference<H, D>& ref, Where where, Advice advice) {
  static_assert(std::is_same_v<typename detail::Compared<A>::type, float>,
                "a tolerant comparison is made on float outputs");
  if (timing() || device_only_) {
    report(a.name(),
           detail::near_on_device(ArrayElement<float>{a.data()}, a.size(), ref.device,
                                  detail::before_launch_of(a, ref.device)),
           where, advice, detail::Compared<A>::never);
    return;
  }
  const auto [exact, tolerance] = ref.host();
  if (all_drawn()) {
    vouch(exact, tolerance, detail::evaluate_on_device<Near>(ref.device, 0, exact.size()));
    vouch_initial(a, ref.device);
  }
  expect_near(a, exact, tolerance, where, advice);
}

template <typename T, typename D>
void Case::vouch_initial(const InOut<T>& a, const D& device) const {
  vouch(a.host(), detail::evaluate_on_device<T>(detail::InitialOf<T, D>{device}, 0, a.size()));
}
#endif

// ---------------------------------------------------------------------------------------------
// Registration. A lesson's test file registers its tests in a COURSE_TESTS block; the step is
// the enum the build generates from the manifest (steps/<lesson>.hpp), whose lesson_id() and
// step_name() are found by argument-dependent lookup.

namespace detail {
using Runner = std::function<void()>;
/// Registers a GoogleTest test `suite`.`name` running `run`. Correctness cases ("<step>/Correct")
/// are registered at once; the others wait for register_deferred_tests(), so that every
/// correctness case runs first (quiet_gpu.hpp), but for register_test_last()'s.
void register_test(const std::string& suite, const std::string& name, Runner run);
/// register_test() for a test that calls wait_for_quiet_gpu() itself once it knows it needs the
/// GPU alone (set_waits_itself(suite)): the timed tests (register_timed_test()) and lesson 15's
/// profiled test.
void register_test_waiting_itself(const std::string& suite, const std::string& name, Runner run);
/// Registers "<step>/Speed.timed" running `run` with register_test_waiting_itself(): run_speed()
/// and run_host_speed() wait once they know they will time.
void register_timed_test(const std::string& step, Runner run);
/// Registers a correctness case to run after every other test (correctness_ending_process()).
void register_test_last(const std::string& suite, const std::string& name, Runner run);
/// Registers the tests register_test() and register_test_last() held back, in that order; main()
/// calls it before anything lists or runs the tests.
void register_deferred_tests();
void run_correctness(const std::string& lesson, const std::string& step, const std::string& name,
                     const std::function<void(Case&)>& body);
void run_speed(const std::string& lesson, const std::string& step,
               const std::function<void(Case&)>& body);

/// correctness() and correctness_ending_process(): registers each case with `add`
/// (register_test or register_test_last) in suite "<step><suite_tail>".
template <typename Step, typename P, typename Name, typename BodyFn, typename Add>
void register_correctness(Step step, const char* suite_tail, const std::vector<P>& params,
                          Name name, BodyFn body, Add add) {
  const std::string lesson = lesson_id(step), s = step_name(step);
  for (const P& p : params) {
    const std::string n = name(p);
    add(s + suite_tail, n, [=] { run_correctness(lesson, s, n, [&](Case& c) { body(c, p); }); });
  }
}
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
  detail::register_correctness(step, "/Correct", params, name, body, detail::register_test);
}

/// As correctness(), for cases that end their process on purpose (a sticky error provoked by the
/// test, which then calls mark_context_lost()), named "<step>/CorrectLast.<name(p)>": they run
/// after every other test of the file, the timed ones included, so that none of those needs a
/// fresh process and CUDA context after them (0.4 s of lesson 02's grade on our H200,
/// docs/measured/H200.md, sixteenth session). A suite of their own, since GoogleTest runs the
/// tests of one suite together, where the suite first appears.
template <typename Step, typename P, typename Name, typename BodyFn>
void correctness_ending_process(Step step, const std::vector<P>& params, Name name, BodyFn body) {
  detail::register_correctness(step, "/CorrectLast", params, name, body,
                               detail::register_test_last);
}

/// Registers "<step>/Speed.timed": `body` runs on the timing shape `timing_param()` (called in
/// the test process, so it may read the device: see timing_side()) and must be right; then the
/// launch it made is timed against the ceiling it set, interleaved, L2 flushed before every
/// sample, every launch (the ceiling's too) on inputs drawn anew on the device, none seen by an
/// earlier launch (so every input of the body must be drawn: Case::input(name, n, draw)); then
/// the outputs of three timed launches chosen at random are checked by `body` itself, on those
/// launches' inputs (Case::replay()), so a kernel that replays or caches a result fails. The
/// gate and the ceiling's name and kind come from the manifest.
/// @param step         the step, from the generated steps/LESSON.hpp
/// @param timing_param a callable returning the timing shape P
/// @param body         a callable `void(Case&, const P&)`, usually the correctness body; it must
///                     make the same buffers in the same order on every run
template <typename Step, typename TimingParam, typename BodyFn>
void speed(Step step, TimingParam timing_param, BodyFn body) {
  const std::string lesson = lesson_id(step), s = step_name(step);
  detail::register_timed_test(
      s, [=] { detail::run_speed(lesson, s, [&](Case& c) { body(c, timing_param()); }); });
}

/// "n_1027": a case name for a count.
std::string name_n(const int& n);

/// Runs the code after it once, before main(), to register the file's tests.
#define COURSE_TESTS                                                                             \
  static void course_register_tests();                                                           \
  [[maybe_unused]] static const bool course_tests_registered_ = (course_register_tests(), true); \
  static void course_register_tests()

}  // namespace harness
