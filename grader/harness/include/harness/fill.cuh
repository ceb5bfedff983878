/// @file fill.cuh
/// @brief Drawing inputs on the device (element i of a buffer becomes draw(seed, i),
/// harness/draw.hpp, for linear and pitched buffers), and comparing large outputs there.
/// Compiled into each lesson's hidden tests (nvcc), because the draws are the lesson's own types.
///
/// Why on the device: the speed test gives every timed launch inputs that no earlier launch of
/// the process has seen (docs/INSTRUCTORS.md, "Threat model"), so a kernel that remembers an
/// earlier result cannot gain from it. Drawing 2^26 floats on the device is one write pass (about
/// as long as the L2 flush that precedes every sample), where the host would need tens of
/// milliseconds and an upload per sample. A case of several GiB (lesson 03's 2^31 elements) is
/// drawn and checked here from start to end, so that no 8 GiB array crosses to the host
/// (Case::keep_on_device()).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "harness/buffer.hpp"  // DeviceBuffer, DeviceCount, kOutputPoison
#include "harness/cuda_check.hpp"
#include "harness/data.hpp"  // Near

namespace harness {

/// Element i of an array in device memory: how the comparisons read a kernel's output, and a
/// device reference (harness::Reference) whose values a test computed into a buffer of its own
/// from the inputs' draws (lesson 11: a fresh draw scanned by CUB), for references that no
/// per-element formula gives cheaply. The buffer must outlive the comparison.
template <typename T>
struct ArrayElement {
  const T* values;  ///< device pointer
  /// Element `i`.
  __device__ T operator()(std::size_t i) const { return values[i]; }
};

namespace detail {

template <typename T, typename Draw>
__global__ void fill_linear(T* out, std::size_t n, std::uint64_t seed, Draw draw) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = draw(seed, i);
}

// Element (r, c) of a rows x cols matrix whose rows are `pitch` bytes apart is draw(seed, r *
// cols + c): the same values as a dense row-major array drawn from the seed.
template <typename T, typename Draw>
__global__ void fill_pitched(char* base, std::size_t pitch, std::size_t rows, std::size_t cols,
                             std::uint64_t seed, Draw draw) {
  const std::size_t n = rows * cols;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const std::size_t r = i / cols, c = i % cols;
    reinterpret_cast<T*>(base + r * pitch)[c] = draw(seed, i);
  }
}

// Enough blocks of 256 threads to cover `n` elements, at most 2^16 (a grid-stride loop does the
// rest): thousands of blocks keep every SM busy on any GPU of the course.
inline unsigned fill_blocks(std::size_t n) {
  return static_cast<unsigned>(std::clamp<std::size_t>((n + 255) / 256, 1, std::size_t(1) << 16));
}

}  // namespace detail

/// Enqueues the drawing of `n` elements at `out` on `stream`: out[i] = draw(seed, i).
/// @return the launch error (cudaSuccess when n == 0: nothing is launched)
template <typename T, typename Draw>
cudaError_t fill_on_device(T* out, std::size_t n, std::uint64_t seed, Draw draw,
                           cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  detail::fill_linear<<<detail::fill_blocks(n), 256, 0, stream>>>(out, n, seed, draw);
  return cudaGetLastError();
}

/// Enqueues the drawing of a rows x cols matrix whose rows are `pitch` bytes apart, element
/// (r, c) = draw(seed, r * cols + c); the padding after each row is not touched.
/// @return the launch error (cudaSuccess when the matrix is empty)
template <typename T, typename Draw>
cudaError_t fill_pitched_on_device(T* base, std::size_t pitch, std::size_t rows, std::size_t cols,
                                   std::uint64_t seed, Draw draw, cudaStream_t stream) {
  if (rows * cols == 0) return cudaSuccess;
  detail::fill_pitched<T><<<detail::fill_blocks(rows * cols), 256, 0, stream>>>(
      reinterpret_cast<char*>(base), pitch, rows, cols, seed, draw);
  return cudaGetLastError();
}

namespace detail {

template <typename T>
__device__ bool same_bits(const T& a, const T& b) {
  const unsigned char* pa = reinterpret_cast<const unsigned char*>(&a);
  const unsigned char* pb = reinterpret_cast<const unsigned char*>(&b);
  for (unsigned k = 0; k < sizeof(T); ++k)
    if (pa[k] != pb[k]) return false;
  return true;
}

// Counts the elements i < n that fail `judge`: judge(i) is 0 for an element that matches its
// reference, 1 for one that does not, 2 for one that does not and still holds what it held
// before the launch (unwritten).
template <typename Judge>
__global__ void count_wrong(std::size_t n, Judge judge, DeviceCount* count) {
  unsigned long long wrong = 0, unwritten = 0, first = ~0ull;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const int j = judge(i);
    if (j == 0) continue;
    ++wrong;
    unwritten += j == 2;
    if (i < first) first = i;
  }
  if (wrong == 0) return;
  atomicAdd(&count->wrong, wrong);
  atomicAdd(&count->unwritten, unwritten);
  atomicMin(&count->first, first);
}

// Element i of a pitched matrix with `cols` elements per row (a linear array's: ArrayElement).
template <typename T>
struct PitchedAt {
  const char* base;
  std::size_t pitch, cols;
  __device__ T operator()(std::size_t i) const {
    return reinterpret_cast<const T*>(base + (i / cols) * pitch)[i % cols];
  }
};

// Judges got(i) bit for bit against expected(i); before(i, g) tells an unwritten element.
template <typename T, typename Got, typename Expected, typename Before>
struct SameBits {
  Got got;
  Expected expected;
  Before before;
  __device__ int operator()(std::size_t i) const {
    const T g = got(i);
    if (same_bits(g, static_cast<T>(expected(i)))) return 0;
    return before(i, g) ? 2 : 1;
  }
};

// Judges got(i) against a Near reference: |got - exact| <= tolerance (a NaN never is).
template <typename Got, typename Reference, typename Before>
struct Within {
  Got got;
  Reference reference;
  Before before;
  __device__ int operator()(std::size_t i) const {
    const float g = got(i);
    const Near e = reference(i);
    if (fabs(static_cast<double>(g) - e.exact) <= e.tolerance) return 0;
    return before(i, g) ? 2 : 1;
  }
};

// Before a launch: an output holds kOutputPoison in every byte; an array updated in place
// holds reference.initial(i).
struct StillPoisoned {
  template <typename T>
  __device__ bool operator()(std::size_t, const T& g) const {
    return still_poisoned(g);
  }
};
template <typename Reference>
struct StillInitial {
  Reference reference;
  template <typename T>
  __device__ bool operator()(std::size_t i, const T& g) const {
    return same_bits(g, static_cast<T>(reference.initial(i)));
  }
};

// An input is unchanged when it still holds its draw: its reference is the draw itself.
template <typename T, typename Draw>
struct StillDrawn {
  DrawnElement<T, Draw> drawn;
  __device__ bool operator()(std::size_t i, const T& g) const { return same_bits(g, drawn(i)); }
};

template <typename Judge>
cudaError_t count_on_device(std::size_t n, Judge judge, DeviceCount& out) {
  DeviceCount* d = nullptr;
  if (cudaError_t e = cudaMalloc(&d, sizeof(DeviceCount)); e != cudaSuccess) return e;
  DeviceCount zero;
  cudaError_t e = cudaMemcpy(d, &zero, sizeof zero, cudaMemcpyHostToDevice);
  if (e == cudaSuccess && n > 0) {
    count_wrong<<<fill_blocks(n), 256>>>(n, judge, d);
    e = cudaGetLastError();
  }
  if (e == cudaSuccess) e = cudaMemcpy(&out, d, sizeof out, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return e;
}

template <typename R, typename Reference>
struct Shifted {
  Reference reference;
  std::size_t first;
  __device__ R operator()(std::size_t i) const { return reference(first + i); }
};

template <typename R, typename Reference>
__global__ void evaluate(R* out, std::size_t n, Reference reference) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = reference(i);
}

// reference(i) for i in [first, first + n), computed on the device and read back: a device
// reference's values for a message, or all of them to check it against the host reference.
template <typename R, typename Reference>
std::vector<R> evaluate_on_device(Reference reference, std::size_t first, std::size_t n) {
  std::vector<R> values(n);
  if (n == 0) return values;
  DeviceBuffer<R> out(n, 0);
  evaluate<<<fill_blocks(n), 256>>>(out.data(), n, Shifted<R, Reference>{reference, first});
  check(cudaGetLastError(), "evaluate a device reference");
  return out.download();
}

}  // namespace detail

namespace detail {

// The sum and the maximum of a reduce_on_device(): the identity, the combination of two values,
// and the merge of a thread's result into the one result (atomic: any order gives the same
// result for integers and keys, and a double sum within its rounding).
template <typename T>
struct Sum {
  __device__ T identity() const { return T{}; }
  __device__ T operator()(T a, T b) const { return a + b; }
  __device__ void merge(T* into, T v) const {
    if constexpr (std::is_same_v<T, long long>)
      atomicAdd(reinterpret_cast<unsigned long long*>(into), static_cast<unsigned long long>(v));
    else
      atomicAdd(into, v);
  }
};
template <typename T>
struct Max {
  __device__ T identity() const { return T{}; }  // unsigned keys: 0 is the least
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
  __device__ void merge(T* into, T v) const { atomicMax(into, v); }
};

template <typename T, typename Value, typename Op>
__global__ void reduce_values(std::size_t n, Value value, Op op, T* result) {
  T mine = op.identity();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    mine = op(mine, value(i));
  op.merge(result, mine);
}

template <typename T, typename Value, typename Op>
T reduce_on_device(std::size_t n, Value value, Op op) {
  DeviceBuffer<T> result(1, 0);
  check(cudaMemset(result.data(), 0, sizeof(T)), "clear a reference's result");
  reduce_values<<<1024, 256>>>(n, value, op, result.data());
  check(cudaGetLastError(), "launch a reference reduction");
  return result.download()[0];
}

}  // namespace detail

/// The sum over i < n of value(i), computed on the device: the reference of a whole-array sum
/// in the speed test, where the host would draw and add 2^26 values for each check. `value` is
/// a functor `__device__ T operator()(std::size_t i) const` from the inputs' draws (e.g.
/// DrawnElement<long long, TheLessonsDraw>{x.seed()}). Exact for integer T; for double, within
/// its rounding (the order of the additions is not fixed). T: long long, unsigned long long or
/// double. @throws CudaError.
template <typename T, typename Value>
T sum_on_device(std::size_t n, Value value) {
  return detail::reduce_on_device<T>(n, value, detail::Sum<T>{});
}

/// The maximum over i < n of value(i) (unsigned keys, 0 the least: e.g. an arg max's packed
/// value and index), computed on the device as sum_on_device() computes sums. @throws CudaError.
template <typename T, typename Value>
T max_on_device(std::size_t n, Value value) {
  return detail::reduce_on_device<T>(n, value, detail::Max<T>{});
}

/// Counts the elements of `now` (n on the device) that are no longer draw(seed, i): the check
/// that a kernel left its input unchanged, made on the device.
template <typename T, typename Draw>
cudaError_t count_changed_on_device(const T* now, std::size_t n, std::uint64_t seed, Draw draw,
                                    DeviceCount& out) {
  const DrawnElement<T, Draw> drawn{seed, draw};
  using Judge =
      detail::SameBits<T, ArrayElement<T>, DrawnElement<T, Draw>, detail::StillDrawn<T, Draw>>;
  return detail::count_on_device(n, Judge{{now}, drawn, {drawn}}, out);
}

}  // namespace harness
