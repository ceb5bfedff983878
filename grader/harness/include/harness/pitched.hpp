/// @file pitched.hpp
/// @brief Pitched 2-D matrices for hidden tests: a rows x cols matrix in one cudaMallocPitch
/// allocation, whose padding and guard rows hold sentinels that the end-of-case checks read.
///
/// cudaMallocPitch gives every row the same length in bytes, the pitch, at least the row's
/// `cols * sizeof(T)` bytes; element (r, c) is at `(char*)base + r * pitch + c * sizeof(T)`. The
/// bytes from `cols * sizeof(T)` to the pitch of each row (the padding) belong to no element, and
/// the allocation here carries guard rows after the last row. Both hold a sentinel, as the guard
/// elements of harness/lesson.hpp's buffers do: kInputGuard for inputs, kOutputPoison for outputs
/// (poisoned again before every launch, with the elements). After the launch every padding byte,
/// every guard row and every input element is checked, so a kernel that steps from row to row by
/// the wrong amount shows as "wrote into the padding after row r" or "wrote ... past the last row",
/// not only as wrong elements.
///
/// Used like the Case's own buffers:
///
/// ```cpp
/// const auto in = harness::pitched_input<float>(c, "in", rows, cols);
/// const auto out = harness::pitched_output<float>(c, "out", rows, cols);
/// c.launch(lesson::launch_scale, in.data(), in.pitch(), out.data(), out.pitch(), rows, cols);
/// harness::expect_exact(c, out, expected_dense_row_major, harness::row_major(cols));
/// ```
///
/// host() and download() are dense row-major (element (r, c) at r * cols + c), so references
/// and harness::row_major() work as for linear buffers. Pass data() and pitch() to launch(),
/// not the handles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "harness/lesson.hpp"

namespace harness {

namespace detail {

// One cudaMallocPitch allocation of `rows + guard_rows` rows of at least `width` bytes (and at
// least `min_pitch`), untyped. Frees itself unless the context is lost (as DeviceBuffer does).
class PitchedMemory {
 public:
  PitchedMemory(std::size_t width, std::size_t rows, std::size_t guard_rows, std::size_t min_pitch);
  ~PitchedMemory();
  PitchedMemory(const PitchedMemory&) = delete;
  PitchedMemory& operator=(const PitchedMemory&) = delete;

  void* data() const { return ptr_; }
  std::size_t pitch() const { return pitch_; }
  std::size_t width() const { return width_; }
  std::size_t rows() const { return rows_; }
  std::size_t guard_rows() const { return guard_rows_; }

  // Every byte of the allocation (elements, padding, guard rows) set to `byte`.
  void fill(std::uint8_t byte);
  // `rows` rows of `width` bytes from dense host memory into the rows (cudaMemcpy2D).
  void upload(const void* host);
  // The rows' `width` bytes each into dense host memory (cudaMemcpy2D).
  void download(void* host) const;
  // The whole allocation, padding and guard rows included.
  std::vector<std::uint8_t> download_all() const;

 private:
  void* ptr_ = nullptr;
  std::size_t pitch_ = 0, width_, rows_, guard_rows_;
};

// Where a pitched matrix's bytes are: `rows` rows of `width` bytes of elements of `element`
// bytes, `pitch` bytes apart; guard rows follow the last row.
struct PitchedLayout {
  std::size_t width, pitch, rows, element;
};

// The end-of-case messages of a pitched matrix, from `all`, its whole allocation as read back
// (rows and guard rows, pitch bytes each): padding or guard bytes that lost their sentinel
// (kInputGuard for an input, kOutputPoison for an output) and, for an input, elements that
// differ from `initial` (the values uploaded, dense row-major). Host code only.
std::vector<std::string> pitched_problems(const std::string& name,
                                          const std::vector<std::uint8_t>& all,
                                          const PitchedLayout& layout, bool input,
                                          const void* initial);

// Guard rows after a matrix of `rows` rows of `element`-byte elements: none when timing or
// under compute-sanitizer (as for linear buffers, so that memcheck sees the exact bounds); else
// (element - 1) * rows, and at least 32. A kernel that takes the pitch, a byte count, for an
// element count puts row r at r * pitch * element bytes, below element * rows * pitch: that much
// allocation keeps every such write inside it, where the guard sees it, instead of somewhere
// unowned. 32 rows cover a block's worth of rows written past the end by a missing row check.
std::size_t pitched_guard_rows(const Case& c, std::size_t rows, std::size_t element);

template <typename T>
struct PitchedBuffer : BufferBase {
  PitchedMemory memory;
  int rows, cols;
  std::vector<T> initial;  // inputs: the values uploaded, dense row-major
  PitchedBuffer(int r, int c, std::size_t guard_rows, std::size_t min_pitch)
      : memory(static_cast<std::size_t>(c) * sizeof(T), static_cast<std::size_t>(r), guard_rows,
               min_pitch),
        rows(r),
        cols(c) {}
  std::size_t size() const override { return static_cast<std::size_t>(rows) * cols; }
  void* device() override { return memory.data(); }
  std::size_t element_bytes() const override { return sizeof(T); }
  void before_launch() override {
    if (role == Role::output) memory.fill(kOutputPoison);
  }
  void keep_drawn_values() override {  // the sentinels were written before the draw
    initial.resize(size());
    memory.download(initial.data());
  }
  void prepare_timed(std::uint64_t seed, cudaStream_t stream) override {
    if (role == Role::output)
      check(cudaMemsetAsync(memory.data(), kOutputPoison, memory.pitch() * memory.rows(), stream),
            "poison " + name + " before a timed launch");
    else
      check(redraw(seed, stream), "draw " + name + " afresh before a timed launch");
  }
  void snapshot(void* dst, bool to_host, cudaStream_t stream) const override {
    check(cudaMemcpy2DAsync(dst, memory.width(), memory.data(), memory.pitch(), memory.width(),
                            memory.rows(),
                            to_host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice, stream),
          "keep " + name + " of a timed launch");
  }
  void restore(const void* src, bool from_host) override {
    check(
        cudaMemcpy2D(memory.data(), memory.pitch(), src, memory.width(), memory.width(),
                     memory.rows(), from_host ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice),
        "put back " + name + " of a timed launch");
  }
  std::vector<std::string> end_problems() const override {
    const PitchedLayout layout{memory.width(), memory.pitch(), memory.rows(), sizeof(T)};
    return pitched_problems(name, memory.download_all(), layout, role == Role::input,
                            role == Role::input ? initial.data() : nullptr);
  }
};

}  // namespace detail

/// A read-only pitched input: device pointer, pitch and the pristine values (dense row-major).
template <typename T>
class PitchedInput {
 public:
  const T* data() const { return static_cast<const T*>(buf_->memory.data()); }  ///< row 0
  std::size_t pitch() const { return buf_->memory.pitch(); }  ///< bytes from row to row
  int rows() const { return buf_->rows; }                     ///< rows
  int cols() const { return buf_->cols; }                     ///< elements per row
  /// The values uploaded, dense row-major: what a host reference is computed from.
  const std::vector<T>& host() const {
    buf_->ensure_host();
    return buf_->initial;
  }
  /// The seed the values were drawn from (element (r, c) is draw(seed(), r * cols() + c)); 0 for
  /// values handed over as a vector.
  std::uint64_t seed() const { return buf_->seed; }
  /// A handle on a buffer its Case owns (made by pitched_input()).
  explicit PitchedInput(detail::PitchedBuffer<T>* b) : buf_(b) {}

 private:
  detail::PitchedBuffer<T>* buf_;
};

/// A pitched output, poisoned (elements, padding and guard rows) before every launch.
template <typename T>
class PitchedOutput {
 public:
  T* data() const { return static_cast<T*>(buf_->memory.data()); }  ///< row 0
  std::size_t pitch() const { return buf_->memory.pitch(); }        ///< bytes from row to row
  int rows() const { return buf_->rows; }                           ///< rows
  int cols() const { return buf_->cols; }                           ///< elements per row
  const std::string& name() const { return buf_->name; }            ///< as in messages
  /// The elements, dense row-major (padding left out). @throws CudaError.
  std::vector<T> download() const {
    std::vector<T> host(buf_->size());
    buf_->memory.download(host.data());
    return host;
  }
  /// A handle on a buffer its Case owns (made by pitched_output()).
  explicit PitchedOutput(detail::PitchedBuffer<T>* b) : buf_(b) {}

 private:
  detail::PitchedBuffer<T>* buf_;
};

/// A rows x cols read-only input holding `values` (dense row-major, rows * cols of them) in a
/// cudaMallocPitch allocation; its padding and guard rows hold kInputGuard. Checked unchanged,
/// padding included, at the end of the case. Correctness cases only, as Case::input(name,
/// values). @throws SkipCase for a large shape under --quick.
template <typename T>
PitchedInput<T> pitched_input(Case& c, const std::string& name, int rows, int cols,
                              std::vector<T> values) {
  if (rows < 1 || cols < 1 || values.size() != static_cast<std::size_t>(rows) * cols)
    throw std::invalid_argument("pitched_input " + name + ": needs rows, cols >= 1 and " +
                                "rows * cols values");
  c.refuse_handed_values(name);
  const std::size_t guard = detail::pitched_guard_rows(c, rows, sizeof(T));
  auto b = std::make_unique<detail::PitchedBuffer<T>>(rows, cols, guard, 0);
  b->name = name;
  b->role = detail::BufferBase::Role::input;
  b->initial = std::move(values);
  detail::PitchedBuffer<T>* raw = c.adopt(std::move(b));
  raw->memory.fill(kInputGuard);
  raw->memory.upload(raw->initial.data());
  return PitchedInput<T>(raw);
}

#if defined(__CUDACC__)
/// A rows x cols read-only input drawn on the device by `draw` (by default the course's random
/// values of T), element (r, c) = draw(seed, r * cols + c), as Case::input() draws; its padding
/// and guard rows hold kInputGuard. In the speed test it is drawn anew before every timed launch.
/// @throws SkipCase for a large shape under --quick; CudaError.
template <typename T, typename Draw = RandomValues<T>>
PitchedInput<T> pitched_input(Case& c, const std::string& name, int rows, int cols,
                              Draw draw = {}) {
  if (rows < 1 || cols < 1)
    throw std::invalid_argument("pitched_input " + name + ": needs rows, cols >= 1");
  const std::size_t guard = detail::pitched_guard_rows(c, rows, sizeof(T));
  auto b = std::make_unique<detail::PitchedBuffer<T>>(rows, cols, guard, 0);
  b->name = name;
  b->role = detail::BufferBase::Role::input;
  detail::PitchedBuffer<T>* raw = c.adopt(std::move(b));
  raw->memory.fill(kInputGuard);
  raw->redraw = [p = static_cast<T*>(raw->memory.data()), pitch = raw->memory.pitch(),
                 r = static_cast<std::size_t>(rows), n = static_cast<std::size_t>(cols),
                 draw](std::uint64_t seed, cudaStream_t stream) {
    return fill_pitched_on_device(p, pitch, r, n, seed, draw, stream);
  };
  raw->draw_on_host = [raw, draw](std::uint64_t seed) {
    raw->initial = draw_values<T>(raw->size(), seed, draw);
  };
  c.draw(*raw);
  return PitchedInput<T>(raw);
}
#endif

/// A rows x cols output in a cudaMallocPitch allocation, poisoned with kOutputPoison (elements,
/// padding and guard rows) before every launch. `min_pitch` > 0 asks cudaMallocPitch for rows of
/// at least that many bytes, e.g. an input's pitch + 1 to give the output a pitch of its own
/// (the output is then the left `cols` columns of a wider matrix, as a view into an image is).
/// @throws SkipCase for a large shape under --quick.
template <typename T>
PitchedOutput<T> pitched_output(Case& c, const std::string& name, int rows, int cols,
                                std::size_t min_pitch = 0) {
  if (rows < 1 || cols < 1)
    throw std::invalid_argument("pitched_output " + name + ": needs rows, cols >= 1");
  const std::size_t guard = detail::pitched_guard_rows(c, rows, sizeof(T));
  auto b = std::make_unique<detail::PitchedBuffer<T>>(rows, cols, guard, min_pitch);
  b->name = name;
  b->role = detail::BufferBase::Role::output;
  detail::PitchedBuffer<T>* raw = c.adopt(std::move(b));
  raw->memory.fill(kOutputPoison);
  return PitchedOutput<T>(raw);
}

/// Compares `out` (its elements, dense row-major) with `expected` bit for bit, worded as
/// Case::expect_exact: an element that still holds kOutputPoison was never written.
template <typename T>
void expect_exact(Case& c, const PitchedOutput<T>& out, const std::vector<T>& expected,
                  Where where = flat(), Advice advice = {}) {
  const std::vector<T> got = out.download();
  c.report(out.name(),
           compare_bits(expected, got, [&](std::size_t i) { return still_poisoned(got[i]); }),
           where, advice, "never written");
}

/// Compares `out` with `exact` within `tolerance[i]` per element, as Case::expect_near does.
void expect_near(Case& c, const PitchedOutput<float>& out, const std::vector<double>& exact,
                 const std::vector<double>& tolerance, Where where = flat(), Advice advice = {});

#if defined(__CUDACC__)
/// Compares `out` with a tolerant Reference (element i = row i / cols, column i % cols), as
/// Case::expect_near does: on the device in the speed test, on the host otherwise (the device
/// reference checked against the host one).
template <typename H, typename D>
void expect_near(Case& c, const PitchedOutput<float>& out, const Reference<H, D>& ref,
                 Where where = flat(), Advice advice = {}) {
  if (c.timing()) {
    const detail::PitchedAt<float> got{reinterpret_cast<const char*>(out.data()), out.pitch(),
                                       static_cast<std::size_t>(out.cols())};
    c.report(out.name(),
             detail::near_on_device(got, static_cast<std::size_t>(out.rows()) * out.cols(),
                                    ref.device, detail::StillPoisoned{}),
             where, advice, "never written");
    return;
  }
  const auto [exact, tolerance] = ref.host();
  if (c.all_drawn())
    c.vouch(exact, tolerance, detail::evaluate_on_device<Near>(ref.device, 0, exact.size()));
  expect_near(c, out, exact, tolerance, where, advice);
}
#endif

}  // namespace harness
