// Lesson 13's table for the lab's bench: the ladder of C = A B at 4096 x 4096 x 4096 in FP32, every
// row timed against cublasSgemm (CUBLAS_DEFAULT_MATH, read back and printed in the title). Each
// kernel is checked once against cuBLAS's pedantic FP32 product (within twice the lesson's
// tolerance, README section 6) before it is timed. The rate in TFLOP/s (2 M N K / time) is in
// each row's note; the GB/s column counts A, B and C once. Kernel names let `ncu --kernel-name
// regex:sgemm_` pick the rows.
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "bench.hpp"
#include "host_reference.hpp"
#include "matmul.cuh"
#include "matmul_steps.hpp"
#include "steps/13_matmul_tiled.hpp"

namespace {

using matmul_tiled::CublasMath;

constexpr int kSide = 4096;

// The classic first attempt, lanes on rows: threadIdx.x runs down a column of C, so each load of
// A touches 32 rows (32 sectors for 128 useful bytes) and so does each store of C.
__global__ void sgemm_naive_lanes_on_rows(const float* __restrict__ A, const float* __restrict__ B,
                                          float* __restrict__ C, int M, int N, int K) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= M || c >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
  C[r * N + c] = acc;
}

struct Matrices {
  harness::DeviceBuffer<float> a, b, c, product, magnitude;
  Matrices()
      : a(std::size_t(kSide) * kSide),
        b(std::size_t(kSide) * kSide),
        c(std::size_t(kSide) * kSide),
        product(std::size_t(kSide) * kSide),
        magnitude(std::size_t(kSide) * kSide) {}
};

void cublas(const float* a, const float* b, float* c, CublasMath math) {
  const cudaError_t err = matmul_tiled::launch_cublas_sgemm(a, b, c, kSide, kSide, kSide, 0, math);
  if (err != cudaSuccess) {
    throw harness::CudaError(std::string("cublasSgemm: ") + matmul_tiled::cublas_error_text(), err,
                             false);
  }
}

// The reference: cuBLAS pedantic on A and B, and on |A| and |B| for the magnitudes; then A and B
// drawn again for the rows.
void prepare(Matrices& m) {
  const std::size_t n = std::size_t(kSide) * kSide;
  harness::check(harness::fill_on_device(m.a.data(), n, 131, matmul_tiled::AbsMatrixValues{}, 0),
                 "draw |A|");
  harness::check(harness::fill_on_device(m.b.data(), n, 132, matmul_tiled::AbsMatrixValues{}, 0),
                 "draw |B|");
  cublas(m.a.data(), m.b.data(), m.magnitude.data(), CublasMath::fp32_pedantic);
  harness::check(harness::fill_on_device(m.a.data(), n, 131, matmul_tiled::MatrixValues{}, 0),
                 "draw A");
  harness::check(harness::fill_on_device(m.b.data(), n, 132, matmul_tiled::MatrixValues{}, 0),
                 "draw B");
  cublas(m.a.data(), m.b.data(), m.product.data(), CublasMath::fp32_pedantic);
  harness::wait(0, "the reference product");
}

// "" when C is within twice the tolerance of the reference everywhere, else the first miss.
std::string check(const Matrices& m) {
  const std::vector<float> got = m.c.download(), want = m.product.download(),
                           mag = m.magnitude.download();
  const double factor = 2.0 * matmul_tiled::tolerance_factor(kSide) * (1.0 + 1.0 / 1024.0);
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!(std::fabs(static_cast<double>(got[i]) - want[i]) <= factor * mag[i]) && wrong++ == 0)
      first = i;
  if (wrong == 0) return "";
  return fmt::format(
      "wrong output, not timed: {} of {} elements outside the tolerance; first C[{}][{}] = {}, "
      "expected {}",
      wrong, got.size(), first / kSide, first % kSide, got[first], want[first]);
}

// A row of the table: checked once, then timed against cuBLAS; the note leads with TFLOP/s.
bench::Row row(const bench::Context& ctx, Matrices& m, const std::string& name,
               const bench::Launch& ceiling, const bench::Launch& kernel, const std::string& note) {
  const double bytes = 3.0 * 4.0 * kSide * static_cast<double>(kSide);
  const double flops = 2.0 * kSide * static_cast<double>(kSide) * kSide;
  m.c.poison();
  harness::check(kernel(0), "launch " + name);
  harness::wait(0, name);
  if (std::string wrong = check(m); !wrong.empty()) {
    bench::Row r;
    r.name = name;
    r.error = wrong;
    return r;
  }
  bench::Row r = bench::measure(ctx, name, ceiling, kernel, bytes, note, /*launched=*/true);
  if (r.error.empty() && r.gbps > 0)
    r.note = fmt::format("{:.1f} TFLOP/s; {}", flops * r.gbps * 1e9 / bytes / 1e12, note);
  return r;
}

bench::Table matmul_table(const bench::Context& ctx) {
  Matrices m;
  prepare(m);
  const float *a = m.a.data(), *b = m.b.data();
  float* c = m.c.data();
  bench::Table t{"matmul",
                 fmt::format("C = A B, {0} x {0} x {0}, FP32 (lesson 13); ceiling mode: {1}", kSide,
                             matmul_tiled::cublas_math_mode_name(CublasMath::fp32_default)),
                 "TFLOP/s = 2 M N K / time (in each note); GB/s = 4 B x (M K + K N + M N) / time",
                 "cublasSgemm, CUBLAS_DEFAULT_MATH (FP32, TF32 off), same matrices"};
  const bench::Launch ceiling = [=](cudaStream_t s) {
    return matmul_tiled::launch_cublas_sgemm(a, b, c, kSide, kSide, kSide, s,
                                             CublasMath::fp32_default);
  };
  t.rows.push_back(row(ctx, m, "cublasSgemm (ceiling)", ceiling, ceiling, "FP32, default math"));
  const bench::Launch pedantic = [=](cudaStream_t s) {
    return matmul_tiled::launch_cublas_sgemm(a, b, c, kSide, kSide, kSide, s,
                                             CublasMath::fp32_pedantic);
  };
  t.rows.push_back(row(ctx, m, "cublasSgemm pedantic", ceiling, pedantic, "FP32, pedantic math"));
  const bench::Launch rows = [=](cudaStream_t s) {
    sgemm_naive_lanes_on_rows<<<dim3(kSide / 32, kSide / 8), dim3(32, 8), 0, s>>>(a, b, c, kSide,
                                                                                  kSide, kSide);
    return cudaGetLastError();
  };
  t.rows.push_back(row(ctx, m, "sgemm_naive_lanes_on_rows", ceiling, rows,
                       "lanes down a column of A and C: uncoalesced"));
  // Every step, with the launcher its tests grade; a row is named after the step's kernel,
  // sgemm_<step>.
  using matmul_tiled::Step;
  const struct {
    Step step;
    const char* note;
  } yours[] = {
      {Step::naive, "one thread per element"},
      {Step::shared_tiles, "32x32 tiles, 2 shared loads per FMA"},
      {Step::register_tiles, "64x64 per block, 4x4 per thread"},
      {Step::warp_tiles, "128x128, 8x8 per thread, float4, warp tiles"},
  };
  for (const auto& y : yours) {
    const matmul_tiled::StepLauncher launch = matmul_tiled::step_launcher(y.step);
    const bench::Launch k = [=](cudaStream_t s) { return launch(a, b, c, kSide, kSide, kSide, s); };
    t.rows.push_back(row(ctx, m,
                         std::string("sgemm_") + matmul_tiled::step_name(y.step) + " (yours)",
                         ceiling, k, y.note));
  }
  return t;
}

}  // namespace

BENCH_TABLE(matmul_tiled::kLessonId, "matmul", matmul_table);
