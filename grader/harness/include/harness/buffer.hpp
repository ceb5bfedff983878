/// @file buffer.hpp
/// @brief Device buffers for hidden tests, and the sentinel bytes that tell the grader what a
/// kernel wrote where.
///
/// Sentinels (docs/INSTRUCTORS.md, "Adding a lesson"). Every output, and the guard elements after
/// it, is filled with kOutputPoison before each launch: an element that still holds it was never
/// written, a guard element that no longer holds it was written past the end. The guard elements
/// after every input hold kInputGuard, a different byte, and no generated input holds either
/// pattern (harness/data.hpp). So a kernel that copies past the end of an input into past the end
/// of an output writes kInputGuard bytes into the output's guard, which shows as damage, never as a
/// clean guard.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/cuda_check.hpp"
#include "harness/draw.hpp"  // HARNESS_HD

namespace harness {

/// Byte every output and its guard hold before a launch. As a float, 0xFEFEFEFE is -1.69e38
/// (finite, and far outside every generated input); as a 32-bit int, -16843010 (outside the
/// generated range); as a double, -5.5e303.
inline constexpr std::uint8_t kOutputPoison = 0xFE;

/// Byte the guard elements after every input hold. As a float, 0xFFFFFFFF is a NaN, so a kernel
/// that reads past its input and uses the value computes a NaN; as an int, -1.
inline constexpr std::uint8_t kInputGuard = 0xFF;

/// Whether `element` (any type) still holds kOutputPoison in every byte: an output element the
/// kernel never wrote. On the host and, in nvcc-compiled code, on the device (harness/fill.cuh).
template <typename T>
HARNESS_HD bool still_poisoned(const T& element) {
  const auto* b = reinterpret_cast<const std::uint8_t*>(&element);
  for (std::size_t k = 0; k < sizeof(T); ++k)
    if (b[k] != kOutputPoison) return false;
  return true;
}

/// What a comparison made on the device found (the counts of harness::Mismatches), for arrays
/// too large to copy to the host (harness/fill.cuh).
struct DeviceCount {
  unsigned long long wrong = 0;      ///< elements that differ
  unsigned long long unwritten = 0;  ///< of those, elements still as before the launch
  unsigned long long first = ~0ull;  ///< the lowest index that differs (~0 when none)
};

/// `count` elements of T in device memory, followed by `guard` elements that hold a sentinel.
template <typename T>
class DeviceBuffer {
 public:
  /// Allocates (count + guard) * sizeof(T) bytes with cudaMalloc; the contents are undefined
  /// until upload() or fill(). @throws CudaError when the allocation fails.
  explicit DeviceBuffer(std::size_t count, std::size_t guard = 0) : count_(count), guard_(guard) {
    check(cudaMalloc(&ptr_, bytes_total() ? bytes_total() : 1),
          "cudaMalloc(" + std::to_string(bytes_total()) + " B)");
  }
  // After a sticky error or a hung kernel, cudaFree would wait for the kernel forever: leave the
  // memory to the process exit that follows.
  ~DeviceBuffer() {
    if (context_lost().empty()) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  /// Device pointer to the first element (the guard starts at data() + size()).
  T* data() { return ptr_; }
  /// Device pointer to the first element, read-only.
  const T* data() const { return ptr_; }
  /// Number of elements, guard excluded.
  std::size_t size() const { return count_; }
  /// Number of guard elements after the last one.
  std::size_t guard() const { return guard_; }
  /// Size of the elements in bytes, guard excluded.
  std::size_t bytes() const { return count_ * sizeof(T); }

  /// Copies `host` to the start of the buffer (synchronous cudaMemcpy); `host` must hold at most
  /// size() elements. The guard is not touched. @throws CudaError.
  void upload(const std::vector<T>& host) {
    check(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
          "copy to device");
  }
  /// Fills the elements and the guard with `byte`. @throws CudaError.
  void fill(std::uint8_t byte) { check(cudaMemset(ptr_, byte, bytes_total()), "fill buffer"); }
  /// Fills only the guard with `byte`. @throws CudaError.
  void fill_guard(std::uint8_t byte) {
    if (guard_ > 0) check(cudaMemset(ptr_ + count_, byte, guard_ * sizeof(T)), "fill guard");
  }
  /// Fills elements and guard with kOutputPoison (what every output holds before a launch).
  void poison() { fill(kOutputPoison); }
  /// Copies the size() elements (not the guard) to the host (synchronous cudaMemcpy).
  /// @throws CudaError, e.g. a sticky error left by the kernel that wrote the buffer.
  std::vector<T> download() const {
    std::vector<T> host(count_);
    check(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost), "copy to host");
    return host;
  }
  /// Number of guard elements with any byte other than `byte` (elements written past the end).
  std::size_t guard_damage(std::uint8_t byte) const {
    if (guard_ == 0) return 0;
    std::vector<std::uint8_t> g(guard_ * sizeof(T));
    check(cudaMemcpy(g.data(), ptr_ + count_, g.size(), cudaMemcpyDeviceToHost), "read guard");
    std::size_t damaged = 0;
    for (std::size_t i = 0; i < guard_; ++i) {
      for (std::size_t b = 0; b < sizeof(T); ++b) {
        if (g[i * sizeof(T) + b] != byte) {
          ++damaged;
          break;
        }
      }
    }
    return damaged;
  }

 private:
  std::size_t bytes_total() const { return (count_ + guard_) * sizeof(T); }
  T* ptr_ = nullptr;
  std::size_t count_;
  std::size_t guard_;
};

}  // namespace harness
