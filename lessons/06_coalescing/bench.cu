// Lesson 06's tables for the lab's bench (Lab 02 §1-2 and its float4 extension): the stride sweep
// and AoS against SoA with the lab's own one-element-per-thread kernels (defined here), then the
// float4 copy and the particle update with the kernels you wrote (or the solutions), checked
// before they are timed.
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <vector>

#include "bench.hpp"
#include "coalescing.cuh"
#include "course/report.hpp"
#include "steps/06_coalescing.hpp"

namespace {

constexpr int kThreads = 256;  // every lab kernel: one element per thread, 256 per block

// A 3-float point, 12 bytes: the array-of-structures layout of the AoS/SoA table.
struct Point3 {
  float x, y, z;
};

// Lane i reads element i * stride: from stride 8 on (floats) every lane has its own sector.
__global__ void stride_copy(const float* __restrict__ in, float* __restrict__ out, long long n,
                            int stride) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

// A warp reads 32 .x fields 12 bytes apart: 384 bytes of sectors for 128 useful bytes.
__global__ void aos_load_x(const Point3* __restrict__ points, float* __restrict__ out,
                           long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = points[i].x;
}

// The same field as its own array: 4 sectors per warp, nothing wasted.
__global__ void soa_load_x(const float* __restrict__ xs, float* __restrict__ out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = xs[i];
}

unsigned blocks(long long n) {
  return static_cast<unsigned>((n + kThreads - 1) / kThreads);
}

bench::Launch stride_launch(const float* in, float* out, long long n, int stride) {
  return [=](cudaStream_t s) {
    stride_copy<<<blocks(n), kThreads, 0, s>>>(in, out, n, stride);
    return cudaGetLastError();
  };
}

// Elements per array: at least `l2_multiple` x the L2 across `bytes_per_element`, fewer when
// `bytes_in_memory` per element would not fit in 60% of free memory.
long long table_size(const bench::Context& ctx, double bytes_per_element, double l2_multiple,
                     double bytes_in_memory) {
  long long n = 1ll << 22;
  while (n * bytes_per_element < l2_multiple * ctx.device.l2_bytes) n *= 2;
  while (n > (1ll << 20) && n * bytes_in_memory > 0.6 * ctx.device.free_bytes) n /= 2;
  return n;
}

bench::Table stride_table(const bench::Context& ctx) {
  // n floats out; the input holds n * 32 floats so every stride reads n distinct elements.
  const long long n = table_size(ctx, 8.0, 8.0, 4.0 * 33);  // stride-1 working set >= 8x L2
  harness::DeviceBuffer<float> in(n * 32), out(n);
  in.upload(harness::random_floats(n * 32, 1));
  bench::Table t{"stride",
                 fmt::format("stride sweep: out[i] = in[i * s], {} floats, one per thread",
                             course::group_thousands(n)),
                 "effective GB/s = (4 B read + 4 B written) x n / kernel time",
                 "stride 1 (the same kernel, coalesced), interleaved with each row"};
  const bench::Launch s1 = stride_launch(in.data(), out.data(), n, 1);
  for (int stride : {1, 2, 4, 8, 16, 32}) {
    const int sectors = stride >= 8 ? 32 : 4 * stride;
    t.rows.push_back(bench::measure(ctx, fmt::format("stride {:>2}", stride), s1,
                                    stride_launch(in.data(), out.data(), n, stride), 8.0 * n,
                                    fmt::format("{} sectors per warp load", sectors)));
  }
  return t;
}

bench::Table aos_soa_table(const bench::Context& ctx) {
  const long long n = table_size(ctx, 8.0, 8.0, 4.0 * 5);
  harness::DeviceBuffer<Point3> points(n);
  harness::DeviceBuffer<float> xs(n), out(n);
  xs.upload(harness::random_floats(n, 2));
  harness::check(cudaMemset(points.data(), 0, points.bytes()), "fill points");
  bench::Table t{
      "aos_soa",
      fmt::format("AoS vs SoA: load .x of {} points (struct {{ float x, y, z; }} vs a flat array)",
                  course::group_thousands(n)),
      "effective GB/s = (4 B of .x read + 4 B written) x n / kernel time",
      "SoA (the flat array), interleaved with each row"};
  const bench::Launch soa = [&](cudaStream_t s) {
    soa_load_x<<<blocks(n), kThreads, 0, s>>>(xs.data(), out.data(), n);
    return cudaGetLastError();
  };
  const bench::Launch aos = [&](cudaStream_t s) {
    aos_load_x<<<blocks(n), kThreads, 0, s>>>(points.data(), out.data(), n);
    return cudaGetLastError();
  };
  t.rows.push_back(bench::measure(ctx, "SoA xs[i]", soa, soa, 8.0 * n, "4 sectors per warp load"));
  t.rows.push_back(
      bench::measure(ctx, "AoS pts[i].x", soa, aos, 8.0 * n, "12 sectors per warp load, 1/3 used"));
  return t;
}

// Step vector_copy: the one-float-per-thread copy of the stride table, the course's float4 copy
// (the step's ceiling) and yours, checked before it is timed.
bench::Table float4_table(const bench::Context& ctx) {
  const long long n = table_size(ctx, 8.0, 8.0, 8.0);
  const int count = static_cast<int>(n);
  harness::DeviceBuffer<float> in(n), out(n);
  const std::vector<float> host = harness::random_floats(n, 3);
  in.upload(host);
  bench::Table t{"float4",
                 fmt::format("float4 copy (extension; lesson 06, step vector_copy): {} floats",
                             course::group_thousands(n)),
                 "effective GB/s = (4 B read + 4 B written) x n / kernel time",
                 "float copy, one element per thread, interleaved with each row"};
  const bench::Launch f1 = stride_launch(in.data(), out.data(), n, 1);
  const bench::Launch f4 = [&](cudaStream_t s) {
    return coalescing::launch_copy_float4_reference(in.data(), out.data(), count, s);
  };
  const bench::Launch yours = [&](cudaStream_t s) {
    return coalescing::launch_copy_float4(in.data(), out.data(), count, s);
  };
  t.rows.push_back(bench::measure(ctx, "float copy", f1, f1, 8.0 * n, "4 B per thread"));
  t.rows.push_back(bench::measure(ctx, "copy_float4_reference", f1, f4, 8.0 * n,
                                  "16 B per thread (the course's)"));
  t.rows.push_back(bench::measure_checked(ctx, "copy_float4", f1, yours, 8.0 * n,
                                          "yours (lesson 06)", out, host,
                                          [](std::size_t i) { return fmt::format("out[{}]", i); }));
  return t;
}

// Step soa_update: your SoA kernel and the course's AoS "before" version, both against the SoA
// copy rung (6 floats read, 3 written per particle, same geometry).
bench::Table particles_table(const bench::Context& ctx) {
  const long long n = table_size(ctx, 36.0, 8.0, 4.0 * 12);
  const int count = static_cast<int>(n);
  std::vector<std::unique_ptr<harness::DeviceBuffer<float>>> soa;  // freed on every exit
  for (int f = 0; f < 6; ++f) {
    soa.push_back(std::make_unique<harness::DeviceBuffer<float>>(n));
    soa.back()->upload(harness::random_floats(n, 10 + f));
  }
  harness::DeviceBuffer<coalescing::Particle> aos(n);
  harness::check(cudaMemset(aos.data(), 0, aos.bytes()), "fill particles");
  const coalescing::Particles p{soa[0]->data(), soa[1]->data(), soa[2]->data(),
                                soa[3]->data(), soa[4]->data(), soa[5]->data()};
  const float dt = 0.01f;
  bench::Table t{
      "particles",
      fmt::format(
          "particle update x += vx*dt (and y, z): {} particles (lesson 06, step soa_update)",
          course::group_thousands(n)),
      "effective GB/s = (6 floats read + 3 written) x 4 B x n / kernel time",
      "copy_particles_soa: the same 6 reads and 3 writes per particle, same geometry"};
  const bench::Launch copy = [&](cudaStream_t s) {
    return coalescing::launch_copy_particles_soa(p, count, s);
  };
  const bench::Launch soa_update = [&](cudaStream_t s) {
    return coalescing::launch_update_soa(p, dt, count, s);
  };
  const bench::Launch aos_update = [&](cudaStream_t s) {
    return coalescing::launch_update_aos(aos.data(), dt, count, s);
  };
  // Check the SoA kernel (yours, or the solution) once before timing it.
  const std::vector<float> x0 = soa[0]->download(), vx = soa[3]->download();
  harness::check(soa_update(0), "launch update_soa");
  harness::wait(0, "update_soa");
  const std::vector<float> x1 = soa[0]->download();
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < x0.size(); ++i) {
    const float ref = x0[i] + vx[i] * dt;
    if (!(std::fabs(x1[i] - ref) <= 1e-6f * (std::fabs(x0[i]) + std::fabs(vx[i] * dt)) + 1e-30f))
      ++wrong;
  }
  if (wrong) {
    bench::Row r;
    r.name = "update_soa (yours)";
    r.error = fmt::format("wrong output, not timed: {} of {} x values wrong", wrong, x0.size());
    t.rows.push_back(r);
  } else {
    t.rows.push_back(bench::measure(ctx, "update_soa", copy, soa_update, 36.0 * n,
                                    "SoA: 6 coalesced loads, 3 stores", /*launched=*/true));
  }
  t.rows.push_back(bench::measure(ctx, "update_aos", copy, aos_update, 36.0 * n,
                                  "AoS: fields 24 B apart in every request"));
  return t;
}

}  // namespace

BENCH_TABLE(coalescing::kLessonId, "stride", stride_table);
BENCH_TABLE(coalescing::kLessonId, "aos_soa", aos_soa_table);
BENCH_TABLE(coalescing::kLessonId, "float4", float4_table);
BENCH_TABLE(coalescing::kLessonId, "particles", particles_table);
