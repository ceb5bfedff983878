/// @file host_code.hpp
/// @brief Pieces for hidden tests of host code the student writes: functions that take arrays in
/// host memory and do their own allocation, copies, launches and error checks. A Case (lesson.hpp)
/// owns device buffers; these check what such a function leaves in host memory and in device
/// memory:
///
/// - HostOutput: a host array poisoned with kOutputPoison before the call, with guard elements
///   after it, so that never-written elements and writes past the end show, as for a device
///   output;
/// - expect_exact(): the comparison of a Case, with the same wording, for a HostOutput;
/// - device_bytes_in_use() and leaked_bytes_per_call(): device memory a call leaves allocated
///   (a leak check that tolerates first-use allocations and allocation granularity).
///
/// For example (a host function `add_host(a, b, c, n)` that should compute c = a + b):
///
/// ```cpp
/// harness::HostOutput<float> out("c", n);
/// const cudaError_t err = add_host(a.data(), b.data(), out.data(), n);
/// if (err != cudaSuccess) return c.fail(...);
/// harness::expect_exact(c, out, expected);  // wrong elements, never written, past the end
/// ```
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "harness/buffer.hpp"
#include "harness/data.hpp"
#include "harness/lesson.hpp"

namespace harness {

/// `n` elements of T in host memory, followed by `guard` guard elements, all holding
/// kOutputPoison bytes until the code under test writes them.
template <typename T>
class HostOutput {
 public:
  /// @param name  as in messages, e.g. "c"
  /// @param n     elements the code under test must write
  /// @param guard elements after them that it must not write
  HostOutput(std::string name, std::size_t n, std::size_t guard = 4096)
      : name_(std::move(name)), n_(n), memory_(n + guard) {
    std::memset(static_cast<void*>(memory_.data()), kOutputPoison, memory_.size() * sizeof(T));
  }
  T* data() { return memory_.data(); }               ///< not null when n + guard > 0
  std::size_t size() const { return n_; }            ///< elements, guard excluded
  const std::string& name() const { return name_; }  ///< as in messages
  /// A copy of the n elements (guard excluded).
  std::vector<T> values() const {
    return std::vector<T>(memory_.begin(), memory_.begin() + static_cast<std::ptrdiff_t>(n_));
  }
  /// Whether element `i` still holds the poison it had before the call.
  bool unwritten(std::size_t i) const { return still_poisoned(memory_[i]); }
  /// Guard elements whose bytes are no longer all kOutputPoison: elements written past the end.
  std::size_t guard_damage() const {
    std::size_t damaged = 0;
    for (std::size_t i = n_; i < memory_.size(); ++i) damaged += !still_poisoned(memory_[i]);
    return damaged;
  }

 private:
  std::string name_;
  std::size_t n_;
  std::vector<T> memory_;
};

/// Compares `out` with `expected` bit for bit and adds a failure to `c` for wrong elements (with
/// the count never written) and for elements written past the end, worded as for a device output.
template <typename T>
void expect_exact(Case& c, const HostOutput<T>& out, const std::vector<T>& expected,
                  Where where = flat()) {
  const Mismatches m =
      compare_bits(expected, out.values(), [&](std::size_t i) { return out.unwritten(i); });
  if (!m.ok()) c.fail(mismatch_message(out.name(), m, where));
  if (const std::size_t d = out.guard_damage(); d > 0)
    c.fail(detail::past_end_message(out.name(), out.size(), d, false));
}

/// Device memory in use on the current device, in bytes: total minus free, as cudaMemGetInfo
/// reports them. It counts every process's allocations, and moves in steps of the driver's
/// allocation granularity, not by the bytes asked for.
/// @throws CudaError when cudaMemGetInfo fails.
std::size_t device_bytes_in_use();

/// Device memory that `call` leaves allocated, in bytes per call. `call` runs once first, not
/// counted: lazy module loading and other first-use allocations of the CUDA runtime are not
/// leaks. Then two rounds of `calls` calls each, device_bytes_in_use() read before and after
/// each round; the smaller growth of the two rounds, divided by `calls`, is the result (0 when
/// memory shrank). Taking the smaller round keeps an allocation by another process during one
/// round from being blamed on `call`. Use arrays of many MiB, so that a leaked one is far above
/// the allocation granularity.
/// @throws CudaError when cudaMemGetInfo fails; whatever `call` throws.
double leaked_bytes_per_call(const std::function<void()>& call, int calls = 2);

}  // namespace harness
