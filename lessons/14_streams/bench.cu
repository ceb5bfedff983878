// Lesson 14's table for the lab's bench: host <-> device copies from page-locked and pageable
// memory, and the pipeline's ladder against the overlap bound (each stage alone, in series, the
// course's pipelines over 2-8 streams, a pipeline from pageable memory, and yours). Every row is
// a host call timed on the wall clock from a synchronized device to a synchronized device
// (harness::wall_ms), median of 7 after a warm-up; the pipelines' outputs are checked once.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "bench.hpp"
#include "harness/host_timing.hpp"
#include "streams.cuh"

namespace {

constexpr std::size_t kN = std::size_t(1) << 26;  // 256 MiB of floats
constexpr std::size_t kBytes = kN * sizeof(float);
constexpr int kSamples = 7;

double median_ms(const bench::Context& ctx, const std::function<void()>& call) {
  call();  // warm-up (and the only run under a profiler)
  if (ctx.profiling) return 0;
  std::vector<double> ms;
  for (int i = 0; i < kSamples; ++i) ms.push_back(harness::wall_ms(call));
  std::sort(ms.begin(), ms.end());
  return ms[kSamples / 2];
}

// A row: `bytes` moved in `ms`, as a fraction of the table's ceiling time.
bench::Row row(const std::string& name, const std::string& note, double bytes, double ms,
               double ceiling_ms) {
  bench::Row r;
  r.name = name;
  r.note = fmt::format("{:.2f} ms; {}", ms, note);
  r.gbps = harness::gbps(bytes, ms);
  r.fraction = ms > 0 ? ceiling_ms / ms : 0;
  r.pairs = kSamples;
  return r;
}

// The course's pipeline: `chunks` chunks dealt to `count` streams in turn (1 stream, 1 chunk:
// the three stages in series).
void course_pipeline(const float* in, float* out, float* d_x, float* d_y, int count, int chunks) {
  std::vector<cudaStream_t> s(static_cast<std::size_t>(count));
  for (cudaStream_t& st : s)
    harness::check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
  const std::size_t chunk = (kN + chunks - 1) / chunks;
  for (std::size_t c = 0; c * chunk < kN; ++c) {
    const cudaStream_t st = s[c % s.size()];
    const std::size_t first = c * chunk, n = std::min(chunk, kN - first);
    harness::check(
        cudaMemcpyAsync(d_x + first, in + first, n * sizeof(float), cudaMemcpyHostToDevice, st),
        "copy in");
    harness::check(streams::launch_transform(d_x + first, d_y + first, n, st), "transform");
    harness::check(
        cudaMemcpyAsync(out + first, d_y + first, n * sizeof(float), cudaMemcpyDeviceToHost, st),
        "copy out");
  }
  for (cudaStream_t st : s) {
    harness::check(cudaStreamSynchronize(st), "cudaStreamSynchronize");
    harness::check(cudaStreamDestroy(st), "cudaStreamDestroy");
  }
}

bool right(const std::vector<float>& x, const float* out) {
  for (std::size_t i = 0; i < kN; i += 4099)
    if (out[i] != std::fmaf(streams::SCALE, x[i], streams::OFFSET)) return false;
  return out[kN - 1] == std::fmaf(streams::SCALE, x[kN - 1], streams::OFFSET);
}

bench::Table streams_table(const bench::Context& ctx) {
  bench::Table t{"streams", "256 MiB host -> device -> host, y = fmaf(1.75, x, -0.5) (lesson 14)",
                 "GB/s = (bytes to the device + bytes back) / wall time; copy rows: bytes / time",
                 "copies: the page-locked copy in the same direction; pipelines: the overlap bound "
                 "max(H2D, kernel, D2H), each alone"};
  float *in = nullptr, *out = nullptr;
  harness::check(cudaMallocHost(&in, kBytes), "cudaMallocHost");
  harness::check(cudaMallocHost(&out, kBytes), "cudaMallocHost");
  std::vector<float> pageable_in(kN), pageable_out(kN);
  const std::vector<float> x = harness::random_floats(kN, 14);
  std::memcpy(in, x.data(), kBytes);
  std::memcpy(pageable_in.data(), x.data(), kBytes);
  harness::DeviceBuffer<float> d_x(kN), d_y(kN);
  auto copy = [&](void* dst, const void* src, cudaMemcpyKind kind) {
    return [=] { harness::check(cudaMemcpy(dst, src, kBytes, kind), "cudaMemcpy"); };
  };
  const double h2d = median_ms(ctx, copy(d_x.data(), in, cudaMemcpyHostToDevice));
  const double h2d_pageable =
      median_ms(ctx, copy(d_x.data(), pageable_in.data(), cudaMemcpyHostToDevice));
  const double d2h = median_ms(ctx, copy(out, d_y.data(), cudaMemcpyDeviceToHost));
  const double d2h_pageable =
      median_ms(ctx, copy(pageable_out.data(), d_y.data(), cudaMemcpyDeviceToHost));
  const double kernel = median_ms(ctx, [&] {
    harness::check(streams::launch_transform(d_x.data(), d_y.data(), kN, 0), "transform");
  });
  t.rows.push_back(row("H2D, page-locked", "cudaMallocHost", kBytes, h2d, h2d));
  t.rows.push_back(row("H2D, pageable", "staged by the driver", kBytes, h2d_pageable, h2d));
  t.rows.push_back(row("D2H, page-locked", "cudaMallocHost", kBytes, d2h, d2h));
  t.rows.push_back(row("D2H, pageable", "staged by the driver", kBytes, d2h_pageable, d2h));

  const double bound = std::max({h2d, kernel, d2h}), moved = 2.0 * kBytes;
  t.rows.push_back(row("transform alone", "launch_transform, device memory", moved, kernel, bound));
  t.rows.push_back(row("overlap bound", "max(H2D, kernel, D2H)", moved, bound, bound));
  struct Config {
    int streams, chunks;
    const char* note;
  };
  for (const Config& c : {Config{1, 1, "one stream, one chunk: in series"},
                          Config{1, 16, "one stream, 16 chunks: still in series"},
                          Config{2, 2, "two halves"}, Config{2, 8, ""}, Config{4, 16, ""},
                          Config{4, 32, ""}, Config{8, 32, ""}, Config{4, 256, "small chunks"}}) {
    std::memset(out, 0, kBytes);
    const double ms = median_ms(
        ctx, [&] { course_pipeline(in, out, d_x.data(), d_y.data(), c.streams, c.chunks); });
    bench::Row r = row(fmt::format("pipeline {} stream{} x {} chunks", c.streams,
                                   c.streams == 1 ? "" : "s", c.chunks),
                       c.note, moved, ms, bound);
    if (!right(x, out)) r.error = "wrong output";
    t.rows.push_back(r);
  }
  const double pageable_ms = median_ms(ctx, [&] {
    course_pipeline(pageable_in.data(), pageable_out.data(), d_x.data(), d_y.data(), 4, 16);
  });
  t.rows.push_back(
      row("pipeline 4 x 16, pageable", "copies staged: no overlap", moved, pageable_ms, bound));

  std::memset(out, 0, kBytes);
  cudaError_t err = cudaSuccess;
  const double yours_ms = median_ms(ctx, [&] {
    if (err == cudaSuccess) err = streams::pipeline(in, out, d_x.data(), d_y.data(), kN);
  });
  bench::Row yours = row("pipeline (yours)", "", moved, yours_ms, bound);
  if (err != cudaSuccess)
    yours.error = fmt::format("pipeline returned {}", cudaGetErrorName(err));
  else if (!right(x, out))
    yours.error = "wrong output";
  t.rows.push_back(yours);
  cudaFreeHost(in);
  cudaFreeHost(out);
  return t;
}

}  // namespace

BENCH_TABLE("14_streams", "streams", streams_table);
