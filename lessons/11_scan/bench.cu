// Lesson 11's tables for the lab's bench: the block scan against its copy rung, the device-wide
// scan ladder (a copy, the course's one-element-per-thread rungs, a chained single pass, your
// reduce-then-scan and look-back) against cub::DeviceScan::InclusiveSum, and compaction against
// cub::DeviceSelect::If. Your kernels (or the solutions) are checked once before they are timed;
// the course's rungs are checked too. Kernel names let `ncu --kernel-name regex:...` pick a row.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "bench.hpp"
#include "course/report.hpp"
#include "host_reference.hpp"
#include "scan.cuh"
#include "steps/11_scan.hpp"

namespace {

using scan::BLOCK_THREADS;

// ---- the course's rungs: one element per thread, a block scan in shared memory or shuffles ----

// Inclusive scan of v over the block; `total` gets the block's sum. Shuffles and one shared
// exchange, or the double-buffered Hillis-Steele scan in shared memory (8 levels, a barrier each).
template <bool kShuffles>
__device__ int rung_block_scan(int v, int& total) {
  __shared__ int buffers[2][BLOCK_THREADS];
  const int t = threadIdx.x;
  if (kShuffles) {
    const int lane = t % 32, warp = t / 32;
    for (int d = 1; d < 32; d *= 2) {
      const int up = __shfl_up_sync(0xffffffffu, v, d);
      if (lane >= d) v += up;
    }
    if (lane == 31) buffers[0][warp] = v;
    __syncthreads();
    int before = 0, sum = 0;
    for (int w = 0; w < BLOCK_THREADS / 32; ++w) {
      before += w < warp ? buffers[0][w] : 0;
      sum += buffers[0][w];
    }
    total = sum;
    __syncthreads();
    return v + before;
  }
  int from = 0;
  buffers[0][t] = v;
  __syncthreads();
  for (int d = 1; d < BLOCK_THREADS; d *= 2) {
    buffers[1 - from][t] = buffers[from][t] + (t >= d ? buffers[from][t - d] : 0);
    from = 1 - from;
    __syncthreads();
  }
  const int inc = buffers[from][t];
  total = buffers[from][BLOCK_THREADS - 1];
  __syncthreads();
  return inc;
}

// Each block's chunk sum (or kept count), one element per thread per step.
template <bool kCount>
__global__ void naive_reduce_chunks(const int* __restrict__ x, int* sums, long long n,
                                    long long chunk) {
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int acc = 0;
  for (long long i = begin + threadIdx.x; i < end; i += BLOCK_THREADS)
    acc += kCount ? (scan::keep(x[i]) ? 1 : 0) : x[i];
  int total;
  rung_block_scan<true>(acc, total);
  if (threadIdx.x == 0) sums[blockIdx.x] = total;
}

// The exclusive scan of the chunk sums, one block.
__global__ void naive_scan_sums(int* sums, int count) {
  int carry = 0;
  for (int base = 0; base < count; base += BLOCK_THREADS) {
    const int i = base + static_cast<int>(threadIdx.x);
    const int v = i < count ? sums[i] : 0;
    int total;
    const int inc = rung_block_scan<true>(v, total);
    if (i < count) sums[i] = carry + inc - v;
    carry += total;
  }
}

// scan_chunks with one element per thread (tiles of 256, 4-byte loads).
template <bool kShuffles>
__global__ void naive_scan_chunks(const int* __restrict__ x, const int* prefix,
                                  int* __restrict__ out, long long n, long long chunk) {
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  int carry = prefix[blockIdx.x];
  for (long long base = begin; base < end; base += BLOCK_THREADS) {
    const long long i = base + threadIdx.x;
    const int v = i < end ? x[i] : 0;
    int total;
    const int inc = rung_block_scan<kShuffles>(v, total);
    if (i < end) out[i] = carry + inc;
    carry += total;
  }
}

// compact_chunks with one element per thread and the shared-memory scan of the flags.
__global__ void naive_compact_chunks(const int* __restrict__ x, const int* offset,
                                     int* __restrict__ out, long long n, long long chunk) {
  const long long begin = static_cast<long long>(blockIdx.x) * chunk;
  const long long end = begin + chunk < n ? begin + chunk : n;
  long long at = offset[blockIdx.x];
  for (long long base = begin; base < end; base += BLOCK_THREADS) {
    const long long i = base + threadIdx.x;
    const int v = i < end ? x[i] : 0;
    const int flag = i < end && scan::keep(v) ? 1 : 0;
    int total;
    const int inc = rung_block_scan<false>(flag, total);
    if (flag) out[at + inc - 1] = v;
    at += total;
  }
}

// A tile-by-tile block scan of 256 elements per block, the shared-memory way (block_scan's rung).
__global__ void naive_block_scan(const int* __restrict__ x, int* __restrict__ inclusive,
                                 int* __restrict__ exclusive, int n) {
  const long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  const int v = i < n ? x[i] : 0;
  int total;
  const int inc = rung_block_scan<false>(v, total);
  if (i < n) {
    inclusive[i] = inc;
    exclusive[i] = inc - v;
  }
}

// The copy of the same bytes with 16-byte accesses (n a multiple of 4 here).
__global__ void copy_int4(const int4* __restrict__ in, int4* __restrict__ out, long long quads) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < quads) out[i] = in[i];
}

unsigned grid_of(long long items) {
  return static_cast<unsigned>((items + BLOCK_THREADS - 1) / BLOCK_THREADS);
}

// The chunk grid, or a failed check.
scan::ChunkGrid grid_for(long long n) {
  scan::ChunkGrid g;
  harness::check(scan::chunk_grid(n, &g), "chunk_grid");
  return g;
}

// A rung of the device scan: the course's reduce, scan of the sums, and one of its scan_chunks.
template <bool kShuffles>
bench::Launch naive_device_scan(const int* x, int* out, int* sums, long long n) {
  const scan::ChunkGrid g = grid_for(n);
  return [=](cudaStream_t s) {
    naive_reduce_chunks<false><<<g.chunks, BLOCK_THREADS, 0, s>>>(x, sums, n, g.chunk);
    naive_scan_sums<<<1, BLOCK_THREADS, 0, s>>>(sums, g.chunks);
    naive_scan_chunks<kShuffles><<<g.chunks, BLOCK_THREADS, 0, s>>>(x, sums, out, n, g.chunk);
    return cudaGetLastError();
  };
}

std::string at(std::size_t i) {
  return fmt::format("out[{}]", i);
}

bench::Table block_table(const bench::Context& ctx) {
  const int n = static_cast<int>(harness::timing_elements(3, sizeof(int)));
  harness::DeviceBuffer<int> x(n), inclusive(n), exclusive(n);
  const std::vector<int> host = scan::scan_values(n, 111);
  x.upload(host);
  const std::vector<int> expected = scan::tile_inclusive_scan(host, BLOCK_THREADS);
  bench::Table t{"block_scan",
                 fmt::format("each 256-element tile of {} ints scanned on its own, inclusive and "
                             "exclusive, 256 threads per block (lesson 11, step block_scan)",
                             course::group_thousands(n)),
                 "effective GB/s = (4 B read + 2 x 4 B written) x n / time",
                 "block_copy_rung: the same grid, load and two stores, no scan"};
  const bench::Launch rung = [&](cudaStream_t s) {
    return scan::launch_block_copy_rung(x.data(), inclusive.data(), exclusive.data(), n, s);
  };
  t.rows.push_back(bench::measure(ctx, "block_copy_rung (ceiling)", rung, rung, 12.0 * n));
  const bench::Launch yours = [&](cudaStream_t s) {
    return scan::launch_block_scan(x.data(), inclusive.data(), exclusive.data(), n, s);
  };
  t.rows.push_back(bench::measure_checked(ctx, "block_scan (yours)", rung, yours, 12.0 * n,
                                          "shuffles, one barrier", inclusive, expected, at));
  const bench::Launch naive = [&](cudaStream_t s) {
    naive_block_scan<<<grid_of(n), BLOCK_THREADS, 0, s>>>(x.data(), inclusive.data(),
                                                          exclusive.data(), n);
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure_checked(ctx, "naive_block_scan", rung, naive, 12.0 * n,
                                          "shared-memory Hillis-Steele, a barrier per level",
                                          inclusive, expected, at));
  return t;
}

bench::Table scan_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(2, sizeof(int));
  harness::DeviceBuffer<int> x(n), out(n), sums(1 << 16);
  const std::vector<int> host = scan::scan_values(static_cast<std::size_t>(n), 112);
  x.upload(host);
  const std::vector<int> expected = scan::inclusive_scan(host);
  bench::Table t{"scan",
                 fmt::format("inclusive scan of {} ints (lesson 11, steps device_scan and "
                             "look_back)",
                             course::group_thousands(static_cast<double>(n))),
                 "effective GB/s = (4 B read + 4 B written) x n / time",
                 "cub::DeviceScan::InclusiveSum of the same ints"};
  const bench::Launch cub = [&](cudaStream_t s) {
    return scan::launch_cub_inclusive_sum(x.data(), out.data(), n, s);
  };
  t.rows.push_back(bench::measure_checked(ctx, "cub::DeviceScan::InclusiveSum (ceiling)", cub, cub,
                                          8.0 * n, "single pass, decoupled look-back", out,
                                          expected, at));
  const bench::Launch copy = [&](cudaStream_t s) {
    const long long quads = n / 4;
    copy_int4<<<grid_of(quads), BLOCK_THREADS, 0, s>>>(reinterpret_cast<const int4*>(x.data()),
                                                       reinterpret_cast<int4*>(out.data()), quads);
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure(ctx, "copy_int4", cub, copy, 8.0 * n,
                                  "a copy of the same bytes: no scan at all"));
  t.rows.push_back(bench::measure_checked(
      ctx, "naive_scan_chunks (reduce-then-scan)", cub,
      naive_device_scan<false>(x.data(), out.data(), sums.data(), n), 8.0 * n,
      "1 element per thread, shared-memory scan", out, expected, at));
  t.rows.push_back(
      bench::measure_checked(ctx, "one_item_scan_chunks (reduce-then-scan)", cub,
                             naive_device_scan<true>(x.data(), out.data(), sums.data(), n), 8.0 * n,
                             "1 element per thread, shuffles", out, expected, at));
  const bench::Launch device = [&](cudaStream_t s) {
    return scan::launch_device_scan(x.data(), out.data(), n, s);
  };
  t.rows.push_back(bench::measure_checked(ctx, "device_scan (yours)", cub, device, 8.0 * n,
                                          "8 per thread, reads x twice", out, expected, at));
  const bench::Launch look_back = [&](cudaStream_t s) {
    return scan::launch_look_back_scan(x.data(), out.data(), n, s);
  };
  t.rows.push_back(bench::measure_checked(ctx, "look_back_scan (yours)", cub, look_back, 8.0 * n,
                                          "one pass", out, expected, at));
  return t;
}

bench::Table compact_table(const bench::Context& ctx) {
  const long long n = harness::timing_elements(2, sizeof(int));
  harness::DeviceBuffer<int> x(n), out(n), sums(1 << 16);
  harness::DeviceBuffer<long long> count(1);
  const std::vector<int> host = scan::scan_values(static_cast<std::size_t>(n), 113);
  x.upload(host);
  const std::vector<int> kept = scan::kept_elements(host);
  std::vector<int> expected(static_cast<std::size_t>(n));
  std::memset(expected.data(), harness::kOutputPoison, expected.size() * sizeof(int));
  std::copy(kept.begin(), kept.end(), expected.begin());
  const double bytes = 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(kept.size());
  bench::Table t{"compact",
                 fmt::format("keep x > 0 of {} ints, in order ({} kept; lesson 11, step compact)",
                             course::group_thousands(static_cast<double>(n)),
                             course::group_thousands(static_cast<double>(kept.size()))),
                 "effective GB/s = (4 B read x n + 4 B written x kept) / time",
                 "cub::DeviceSelect::If with the same predicate"};
  const bench::Launch cub = [&](cudaStream_t s) {
    return scan::launch_cub_select(x.data(), out.data(), count.data(), n, s);
  };
  t.rows.push_back(bench::measure_checked(ctx, "cub::DeviceSelect::If (ceiling)", cub, cub, bytes,
                                          "single pass", out, expected, at));
  const scan::ChunkGrid g = grid_for(n);
  const bench::Launch naive = [&, g](cudaStream_t s) {
    naive_reduce_chunks<true><<<g.chunks, BLOCK_THREADS, 0, s>>>(x.data(), sums.data(), n, g.chunk);
    naive_scan_sums<<<1, BLOCK_THREADS, 0, s>>>(sums.data(), g.chunks);
    naive_compact_chunks<<<g.chunks, BLOCK_THREADS, 0, s>>>(x.data(), sums.data(), out.data(), n,
                                                            g.chunk);
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure_checked(ctx, "naive_compact_chunks", cub, naive, bytes,
                                          "1 element per thread, shared-memory scan", out, expected,
                                          at));
  const bench::Launch yours = [&](cudaStream_t s) {
    return scan::launch_compact(x.data(), out.data(), count.data(), n, s);
  };
  t.rows.push_back(bench::measure_checked(ctx, "compact (yours)", cub, yours, bytes,
                                          "8 per thread, reads x twice", out, expected, at));
  return t;
}

}  // namespace

BENCH_TABLE(scan::kLessonId, "block_scan", block_table);
BENCH_TABLE(scan::kLessonId, "scan", scan_table);
BENCH_TABLE(scan::kLessonId, "compact", compact_table);
