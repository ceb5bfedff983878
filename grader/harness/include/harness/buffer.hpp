/// @file buffer.hpp
/// @brief Device buffers for hidden tests: poisoned before every launch, with guard elements
/// after the end that catch writes past the last element.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "harness/cuda_check.hpp"

namespace harness {

/// Byte the outputs are filled with before a launch. 0xFF makes every float NaN (0xFFFFFFFF), a
/// value no correct transpose or copy of finite inputs can produce.
inline constexpr std::uint8_t kPoisonByte = 0xFF;

/// `count` elements of T in device memory, followed by `guard` poisoned elements.
template <typename T>
class DeviceBuffer {
 public:
  /// Allocates (count + guard) * sizeof(T) bytes with cudaMalloc; the contents are undefined
  /// until upload() or poison(). @throws CudaError when the allocation fails.
  explicit DeviceBuffer(std::size_t count, std::size_t guard = 0) : count_(count), guard_(guard) {
    check(cudaMalloc(&ptr_, bytes_total()), "cudaMalloc(" + std::to_string(bytes_total()) + " B)");
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
  /// Size of the elements in bytes, guard excluded.
  std::size_t bytes() const { return count_ * sizeof(T); }

  /// Copies `host` to the start of the buffer (synchronous cudaMemcpy); `host` must hold at most
  /// size() elements. The guard is not touched. @throws CudaError.
  void upload(const std::vector<T>& host) {
    check(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
          "copy to device");
  }
  /// Fills the elements and the guard with `byte`.
  void poison(std::uint8_t byte = kPoisonByte) {
    check(cudaMemset(ptr_, byte, bytes_total()), "poison buffer");
  }
  /// Copies the size() elements (not the guard) to the host (synchronous cudaMemcpy).
  /// @throws CudaError, e.g. a sticky error left by the kernel that wrote the buffer.
  std::vector<T> download() const {
    std::vector<T> host(count_);
    check(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost), "copy to host");
    return host;
  }
  /// Number of guard elements that no longer hold the poison byte pattern (writes past the end).
  std::size_t guard_damage(std::uint8_t byte = kPoisonByte) const {
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
