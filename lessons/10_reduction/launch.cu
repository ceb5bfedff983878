// The course-owned launches of lesson 10_reduction: the row sums' two geometries and their read
// rung, arg max and the deterministic sum, and the library calls they are timed against (CUB).
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <cub/cub.cuh>
#include <cuda/std/cstdint>

#include "reduction.cuh"

namespace reduction {

namespace {

// rows * cols and n stay below 2^40: every index and grid far from overflow.
constexpr long long kMaxElements = 1LL << 40;
// arg_max_key keeps 32 bits of index.
constexpr long long kMaxArgMaxElements = 1LL << 32;

cudaError_t sm_count(int* sms) {
  int device = 0;
  if (cudaError_t err = cudaGetDevice(&device); err != cudaSuccess) return err;
  return cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device);
}

// Temporary storage of one CUB call site, kept for the life of the process (one device per
// process): allocated on the first call and again only when a later call needs more, so every
// timed call (the grader warms up first) is the library's work alone.
struct Scratch {
  void* memory = nullptr;
  std::size_t bytes = 0;
  cudaError_t reserve(std::size_t need) {
    if (need <= bytes) return cudaSuccess;
    if (memory != nullptr) {
      if (cudaError_t err = cudaFree(memory); err != cudaSuccess) return err;
      memory = nullptr;
      bytes = 0;
    }
    if (cudaError_t err = cudaMalloc(&memory, need); err != cudaSuccess) return err;
    bytes = need;
    return cudaSuccess;
  }
};

// The read rung of the row sums: x read once as a flat array, 16 bytes per load (cudaMalloc
// memory is 16-byte aligned), the n % 4 tail by the first threads; every out[r] written once,
// by the thread r % (threads in the grid), with that thread's running sum (not the row sums).
__global__ void row_sums_rung(const float* __restrict__ x, float* __restrict__ out, long long rows,
                              long long n) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long quads = n / 4;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float acc = 0.0f;
  for (long long i = t; i < quads; i += stride) {
    const float4 v = x4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  if (t < n - 4 * quads) acc += x[4 * quads + t];
  for (long long r = t; r < rows; r += stride) out[r] = acc;
}

// Segment r of the rows for CUB: it starts at r * cols.
struct RowStart {
  long long cols;
  __host__ __device__ long long operator()(long long r) const { return r * cols; }
};

Scratch& sum_scratch() {
  static Scratch s;
  return s;
}
Scratch& arg_max_scratch() {
  static Scratch s;
  return s;
}
Scratch& segmented_scratch() {
  static Scratch s;
  return s;
}

// CUB's two outputs of ArgMax, which the grader never reads.
struct ArgMaxOutputs {
  float* value = nullptr;
  cuda::std::int64_t* index = nullptr;
};

cudaError_t arg_max_outputs(ArgMaxOutputs** out) {
  static ArgMaxOutputs o;
  if (o.value == nullptr) {
    if (cudaError_t err = cudaMalloc(&o.value, sizeof(float)); err != cudaSuccess) return err;
    if (cudaError_t err = cudaMalloc(&o.index, sizeof(cuda::std::int64_t)); err != cudaSuccess)
      return err;
  }
  *out = &o;
  return cudaSuccess;
}

// The deterministic sum's counter of finished blocks: one unsigned int for the life of the
// process, set to 0 when allocated (on `stream`, before the first launch that uses it); every
// launch's last block sets it back to 0.
cudaError_t blocks_done_counter(unsigned int** counter, cudaStream_t stream) {
  static unsigned int* c = nullptr;
  if (c == nullptr) {
    if (cudaError_t err = cudaMalloc(&c, sizeof(unsigned int)); err != cudaSuccess) return err;
    if (cudaError_t err = cudaMemsetAsync(c, 0, sizeof(unsigned int), stream); err != cudaSuccess)
      return err;
  }
  *counter = c;
  return cudaSuccess;
}

bool matrix_ok(long long rows, long long cols) {
  return rows >= 1 && cols >= 1 && cols < kMaxElements / rows;  // rows * cols < 2^40, no overflow
}

}  // namespace

cudaError_t row_parts(long long rows, long long cols, int* parts) {
  if (rows < 1 || cols < 1 || parts == nullptr) return cudaErrorInvalidValue;
  int sms = 0;
  if (cudaError_t err = sm_count(&sms); err != cudaSuccess) return err;
  // One wave: rows x parts <= 8 x SMs. Rounding up instead (17 parts for 64 rows on 132 SMs:
  // 1,088 blocks for 1,056 places) leaves 32 blocks for a second wave, each alone on its SM, as
  // long as the first wave.
  const long long target = static_cast<long long>(WIDE_BLOCKS_PER_SM) * sms;
  const long long wanted = target / rows;
  const long long most = (cols + MIN_PART_COLS - 1) / MIN_PART_COLS;
  long long p = wanted < most ? wanted : most;
  if (p < 1) p = 1;
  *parts = static_cast<int>(p);
  return cudaSuccess;
}

cudaError_t launch_row_sums(const float* x, float* out, long long rows, long long cols,
                            cudaStream_t stream) {
  if (!matrix_ok(rows, cols)) return cudaErrorInvalidValue;
  if (cols <= NARROW_MAX_COLS) {
    const int lanes = row_team_lanes(cols);
    const long long rows_per_block = BLOCK_THREADS / lanes;
    const long long blocks = (rows + rows_per_block - 1) / rows_per_block;
    row_sums_narrow<<<static_cast<unsigned>(blocks), BLOCK_THREADS, 0, stream>>>(
        x, out, rows, static_cast<int>(cols), lanes);
    return cudaGetLastError();
  }
  int parts = 0;
  if (cudaError_t err = row_parts(rows, cols, &parts); err != cudaSuccess) return err;
  if (rows * parts > 0x7fffffffLL) return cudaErrorInvalidValue;
  if (cudaError_t err =
          cudaMemsetAsync(out, 0, static_cast<std::size_t>(rows) * sizeof(float), stream);
      err != cudaSuccess)
    return err;
  row_sums_wide<<<static_cast<unsigned>(rows * parts), BLOCK_THREADS, 0, stream>>>(x, out, rows,
                                                                                   cols, parts);
  return cudaGetLastError();
}

cudaError_t launch_row_sums_rung(const float* x, float* out, long long rows, long long cols,
                                 cudaStream_t stream) {
  if (!matrix_ok(rows, cols)) return cudaErrorInvalidValue;
  const long long n = rows * cols;
  int blocks = 0;
  if (cudaError_t err = default_blocks(n > rows ? n : rows, &blocks); err != cudaSuccess)
    return err;
  row_sums_rung<<<blocks, BLOCK_THREADS, 0, stream>>>(x, out, rows, n);
  return cudaGetLastError();
}

cudaError_t launch_cub_row_sums(const float* x, float* out, long long rows, long long cols,
                                cudaStream_t stream) {
  if (!matrix_ok(rows, cols)) return cudaErrorInvalidValue;
  const auto starts =
      thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0), RowStart{cols});
  const auto ends = starts + 1;
  std::size_t need = 0;
  if (cudaError_t err =
          cub::DeviceSegmentedReduce::Sum(nullptr, need, x, out, rows, starts, ends, stream);
      err != cudaSuccess)
    return err;
  Scratch& s = segmented_scratch();
  if (cudaError_t err = s.reserve(need); err != cudaSuccess) return err;
  std::size_t bytes = s.bytes;
  return cub::DeviceSegmentedReduce::Sum(s.memory, bytes, x, out, rows, starts, ends, stream);
}

cudaError_t default_blocks(long long n, int* blocks) {
  if (n < 1 || n >= kMaxElements || blocks == nullptr) return cudaErrorInvalidValue;
  int sms = 0;
  if (cudaError_t err = sm_count(&sms); err != cudaSuccess) return err;
  const long long per_sm = static_cast<long long>(BLOCKS_PER_SM) * sms;
  const long long full = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  *blocks = static_cast<int>(per_sm < full ? per_sm : full);
  return cudaSuccess;
}

cudaError_t launch_arg_max(const float* x, long long n, unsigned long long* key,
                           cudaStream_t stream) {
  if (n < 1 || n > kMaxArgMaxElements) return cudaErrorInvalidValue;
  int blocks = 0;
  if (cudaError_t err = default_blocks(n, &blocks); err != cudaSuccess) return err;
  if (cudaError_t err = cudaMemsetAsync(key, 0, sizeof(unsigned long long), stream);
      err != cudaSuccess)
    return err;
  arg_max<<<blocks, BLOCK_THREADS, 0, stream>>>(x, n, key);
  return cudaGetLastError();
}

cudaError_t launch_cub_arg_max(const float* x, long long n, unsigned long long* /*key*/,
                               cudaStream_t stream) {
  if (n < 1 || n > kMaxArgMaxElements) return cudaErrorInvalidValue;
  ArgMaxOutputs* o = nullptr;
  if (cudaError_t err = arg_max_outputs(&o); err != cudaSuccess) return err;
  std::size_t need = 0;
  if (cudaError_t err = cub::DeviceReduce::ArgMax(nullptr, need, x, o->value, o->index, n, stream);
      err != cudaSuccess)
    return err;
  Scratch& s = arg_max_scratch();
  if (cudaError_t err = s.reserve(need); err != cudaSuccess) return err;
  std::size_t bytes = s.bytes;
  return cub::DeviceReduce::ArgMax(s.memory, bytes, x, o->value, o->index, n, stream);
}

cudaError_t launch_deterministic_sum(const float* x, long long n, float* partials, float* out,
                                     int blocks, cudaStream_t stream) {
  if (n < 1 || n >= kMaxElements || blocks < 1 ||
      reinterpret_cast<std::uintptr_t>(x) % alignof(float4) != 0)
    return cudaErrorInvalidValue;
  unsigned int* blocks_done = nullptr;
  if (cudaError_t err = blocks_done_counter(&blocks_done, stream); err != cudaSuccess) return err;
  deterministic_sum<<<blocks, BLOCK_THREADS, 0, stream>>>(x, n, partials, blocks_done, out);
  return cudaGetLastError();
}

cudaError_t launch_cub_sum(const float* x, long long n, float* /*partials*/, float* out,
                           int /*blocks*/, cudaStream_t stream) {
  if (n < 1 || n >= kMaxElements) return cudaErrorInvalidValue;
  std::size_t need = 0;
  if (cudaError_t err = cub::DeviceReduce::Sum(nullptr, need, x, out, n, stream);
      err != cudaSuccess)
    return err;
  Scratch& s = sum_scratch();
  if (cudaError_t err = s.reserve(need); err != cudaSuccess) return err;
  std::size_t bytes = s.bytes;
  return cub::DeviceReduce::Sum(s.memory, bytes, x, out, n, stream);
}

}  // namespace reduction
